import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/test/utils';
import { lazyPage } from './lazyPage';

// The HTML the build wrote for /terms, as the server sends it: a link, a Close button, a mail link.
const SENT =
  '<article><h1>Sent terms</h1><a href="/privacy">Privacy</a><a href="mailto:x@example.com">Mail</a>' +
  '<button type="button" data-to="/">Close</button></article>';

/** A fresh module (its "what the server sent" is read once per page load) and a page whose code is counted. */
async function setUp(sentFor: string | null) {
  document.body.innerHTML = sentFor ? `<div id="root"><div data-static-page="${sentFor}">${SENT}</div></div>` : '';
  vi.resetModules();
  const { staticPage } = await import('./staticPage');
  const load = vi.fn(() => Promise.resolve(() => <h1>Terms from their code</h1>));
  const Page = staticPage('/terms', lazyPage(load));
  // main.tsx preloads the page before the first render, which then replaces the sent HTML.
  await Page.preload();
  document.body.innerHTML = '';
  return { Page, load };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('staticPage', () => {
  it('shows the HTML the server sent for its path, without loading the page code', async () => {
    const { Page, load } = await setUp('/terms');
    renderRoute(<Page />, { path: '/terms', initialEntry: '/terms' });
    expect(screen.getByRole('heading', { name: 'Sent terms' })).toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
  });

  it('follows its site links and data-to buttons within the app, and leaves other links alone', async () => {
    const user = userEvent.setup();
    const { Page } = await setUp('/terms');
    const { router } = renderRoute(<Page />, { path: '/terms', initialEntry: '/terms' });
    // A mail link, and a click that opens a new tab, are the browser's (not prevented).
    expect(fireEvent.click(screen.getByRole('link', { name: 'Mail' }))).toBe(true);
    expect(fireEvent.click(screen.getByRole('link', { name: 'Privacy' }), { ctrlKey: true })).toBe(true);
    expect(screen.queryByTestId('location')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Privacy' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/privacy$/);
    await router.navigate('/terms');
    // Back on the page after leaving it: it renders from its code now.
    expect(await screen.findByRole('heading', { name: 'Terms from their code' })).toBeInTheDocument();
  });

  it('the Close button of the sent HTML goes home', async () => {
    const user = userEvent.setup();
    const { Page } = await setUp('/terms');
    renderRoute(<Page />, { path: '/terms', initialEntry: '/terms' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('renders from its code when the server sent another page, or none', async () => {
    for (const sentFor of ['/privacy', null]) {
      const { Page, load } = await setUp(sentFor);
      const { unmount } = renderRoute(<Page />, { path: '/terms', initialEntry: '/terms' });
      expect(screen.getByRole('heading', { name: 'Terms from their code' })).toBeInTheDocument();
      expect(load).toHaveBeenCalledTimes(1);
      unmount();
    }
  });
});
