import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { fakeAuth } from './fakeAuthClient';

// Every test talks to the in-memory auth client, never to a real /auth/v1.
vi.mock('@/lib/authClient', () => import('./fakeAuthClient'));

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = vi.fn();

beforeEach(() => {
  fakeAuth.reset();
});

afterEach(() => {
  cleanup();
  document.head.innerHTML = '';
  document.title = '';
});
