import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/test/utils';
import pages from './pages.json';
import { renderShell, renderStaticPage, STATIC_PAGES } from './prerender';

function parse(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root;
}

describe('the HTML the build writes (scripts/prerender.mjs)', () => {
  it('the shell: the header while the session is restored, an empty main, no footer', () => {
    const shell = parse(renderShell());
    expect(shell.querySelector('header')?.textContent).toContain('Signalcraft');
    expect(shell.querySelector('[data-testid="session-placeholder"]')).not.toBeNull();
    expect(shell.querySelector('main#main')?.childElementCount).toBe(0);
    expect(shell.querySelector('footer')).toBeNull();
    expect(shell.textContent).not.toContain('Sign In');
  });

  // The server writes these pages' heads from the manifest: their first load runs none of their code.
  it.each(Object.entries(STATIC_PAGES))('%s sets the title and description the page manifest gives the server', (path, Page) => {
    renderRoute(<Page />, { path, initialEntry: path });
    const page = pages.pages.find((p) => p.path === path);
    expect(document.title).toBe(`${String(page?.title)} | Signalcraft`);
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(page?.description);
  });

  it.each(Object.keys(STATIC_PAGES) as (keyof typeof STATIC_PAGES)[])('%s: the whole page in its frame, with the footer', (path) => {
    const page = parse(renderStaticPage(path));
    const frame = page.querySelector(`main [data-static-page="${path}"]`);
    const title = pages.pages.find((p) => p.path === path)?.title;
    expect(frame?.querySelector('h1')?.textContent).toBe(title);
    expect(frame?.querySelector('button[data-to="/"]')?.textContent).toBe('Close');
    expect(page.querySelector('footer')).not.toBeNull();
  });
});
