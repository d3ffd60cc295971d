// The error boundary (ErrorBoundary.tsx): a render error shows a message with Reload and is
// logged; a page whose code fails to load reloads once, then shows the message; inside the layout
// the header stays and a change of path clears the message.
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestQueryClient } from '@/test/utils';
import { ErrorBoundary, isChunkError, RELOAD_KEY, RELOAD_WINDOW_MS } from './ErrorBoundary';
import { RootLayout } from './layout/RootLayout';

const renderError = new Error('Cannot read properties of undefined (reading "name")');
// Chromium's rejection of an import() whose chunk did not arrive.
const chunkError = new TypeError('Failed to fetch dynamically imported module: https://shop.example.nz/assets/AdminDashboardPage-Bx1.js');

function Broken(): never {
  throw renderError;
}

/** A lazy page whose chunk fails to load (a new Promise each mount, like a fresh page load). */
function unloadablePage() {
  return lazy(() => Promise.reject(chunkError));
}

let reload: ReturnType<typeof vi.fn>;
let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  reload = vi.fn();
  // jsdom's location.reload cannot be replaced; a stand-in location can (restored after each test).
  vi.stubGlobal('location', { href: window.location.href, pathname: window.location.pathname, reload });
  sessionStorage.clear();
  // React reports caught errors too; keep the test output clean but observable.
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  sessionStorage.clear();
});

describe('ErrorBoundary', () => {
  it('shows a plain message with Reload for a render error, and logs the error', () => {
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('This page could not be shown.')).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(renderError);
    // Not a chunk failure: no automatic reload.
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(RELOAD_KEY)).toBeNull();
  });

  it('reloads the page when Reload is pressed; the button takes keyboard focus', async () => {
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    const button = screen.getByRole('button', { name: 'Reload' });
    const user = userEvent.setup();
    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads once when a page chunk fails to load, then shows the message when it fails again', async () => {
    const Page = unloadablePage();
    const first = render(
      <ErrorBoundary>
        <Page />
      </ErrorBoundary>,
    );
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    // While the reload is under way nothing is shown (no message flashing before the new page).
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    const recorded = Number(sessionStorage.getItem(RELOAD_KEY));
    expect(Date.now() - recorded).toBeLessThan(5_000);
    expect(consoleError).toHaveBeenCalledWith(chunkError);
    first.unmount();

    // The reloaded page: the chunk fails again, so the message shows and there is no second reload.
    const Again = unloadablePage();
    render(
      <ErrorBoundary>
        <Again />
      </ErrorBoundary>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This page could not be shown.');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again for a chunk failure long after the last reload (a later deploy)', async () => {
    sessionStorage.setItem(RELOAD_KEY, String(Date.now() - RELOAD_WINDOW_MS - 1_000));
    const Page = unloadablePage();
    render(
      <ErrorBoundary>
        <Page />
      </ErrorBoundary>,
    );
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('without session storage it never reloads by itself: the message shows', async () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const Page = unloadablePage();
    render(
      <ErrorBoundary>
        <Page />
      </ErrorBoundary>,
    );
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });

  it('recognises chunk failures of Chromium, Firefox, Safari and the stylesheet loader, and nothing else', () => {
    expect(isChunkError(chunkError)).toBe(true);
    expect(isChunkError(new TypeError('error loading dynamically imported module: https://x/assets/a.js'))).toBe(true);
    expect(isChunkError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkError(new Error('Unable to load assets/QuillEditor-1.css'))).toBe(true);
    expect(isChunkError(renderError)).toBe(false);
    expect(isChunkError('Failed to fetch dynamically imported module')).toBe(false);
  });
});

describe('the page boundary in the layout', () => {
  function Fine() {
    return <h1>Fine page</h1>;
  }

  it('keeps the header and footer around the message, and a new path clears it', async () => {
    const router = createMemoryRouter(
      [
        {
          element: <RootLayout />,
          children: [
            { path: '/broken', element: <Broken /> },
            { path: '/fine', element: <Fine /> },
          ],
        },
      ],
      { initialEntries: ['/broken'] },
    );
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();

    await act(() => router.navigate('/fine'));
    expect(screen.getByRole('heading', { level: 1, name: 'Fine page' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
