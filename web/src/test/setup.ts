import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { clearSessionEndedReport } from '@/lib/sessionEnded';
import { fakeAuth } from './fakeAuthClient';

// Pages, dialogs and the auth session load their code on first use (docs/performance.md): on a
// loaded CI machine the first import of a chunk can take longer than Testing Library's 1 s default.
configure({ asyncUtilTimeout: 5_000 });

// Every test talks to the in-memory auth client, never to a real /auth/v1.
vi.mock('@/lib/authClient', () => import('./fakeAuthClient'));

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = vi.fn();

beforeEach(() => {
  fakeAuth.reset();
});

afterEach(() => {
  cleanup();
  clearSessionEndedReport();
  document.head.innerHTML = '';
  document.title = '';
});
