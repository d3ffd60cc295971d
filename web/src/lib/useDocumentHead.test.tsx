import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { markServerRenderedHead, useDocumentHead } from './head';

function Page({ title }: { title: string }) {
  useDocumentHead({ title, description: `${title} page` });
  return <p>{title}</p>;
}

function renderPages() {
  const router = createMemoryRouter(
    [
      { path: '/', element: <Page title="Home" /> },
      { path: '/terms', element: <Page title="Terms" /> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  markServerRenderedHead(null);
});

describe('useDocumentHead', () => {
  it('leaves the server-written head of the first page alone, then follows navigation', async () => {
    document.title = 'Server title';
    markServerRenderedHead('/');
    const router = renderPages();
    expect(document.title).toBe('Server title');

    await act(() => router.navigate('/terms'));
    expect(document.title).toBe('Terms');
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('Terms page');

    await act(() => router.navigate('/'));
    expect(document.title).toBe('Home');
  });

  it('applies the head at once when the server did not render this page', () => {
    markServerRenderedHead(null);
    renderPages();
    expect(document.title).toBe('Home');
  });
});
