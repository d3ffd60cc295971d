// A page whose HTML the build writes whole (app/prerender.tsx: /terms, /privacy). On the first load
// of its path the server sends that HTML, and the app's first render shows it as it is, in the same
// frame: the visitor reading the terms downloads no code of theirs. The head is the server's (the
// page manifest holds their titles and descriptions). Once the visitor has gone elsewhere, the page
// renders from its code as any other (its own chunk, loaded then).
import { useEffect, type MouseEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { LazyPage } from './lazyPage';

/** The build's frame around a static page: the app's first render takes its content from here. */
export function StaticPageFrame({ path, children }: { path: string; children: ReactNode }) {
  return <div data-static-page={path}>{children}</div>;
}

// The static page the server sent, read once, before the first render replaces the document's
// content; null once the visitor has left it.
let sent: { path: string; html: string } | null | undefined;

function sentHtml(path: string): string | null {
  if (sent === undefined) {
    const frame = document.querySelector<HTMLElement>('[data-static-page]');
    sent = frame ? { path: frame.dataset.staticPage ?? '', html: frame.innerHTML } : null;
  }
  return sent?.path === path ? sent.html : null;
}

/**
 * Its links and `data-to` buttons (the legal pages' Close) navigate within the app, as the page's
 * own Link and onClick would; a modified click (new tab) is left to the browser.
 */
function followWithin(event: MouseEvent, navigate: (to: string) => unknown): void {
  const target = (event.target as Element).closest('[data-to], a[href^="/"]');
  if (!target || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  void navigate(target.getAttribute('data-to') ?? target.getAttribute('href') ?? '/');
}

export function staticPage(path: string, Page: LazyPage<object>): LazyPage<object> {
  function StaticPage() {
    const navigate = useNavigate();
    const html = sentHtml(path);
    useEffect(
      () => () => {
        sent = null;
      },
      [],
    );
    if (html === null) return <Page />;
    // The build's own markup of this page (no visitor's input), exactly as the page renders it.
    return <div data-static-page={path} onClick={(event) => followWithin(event, navigate)} dangerouslySetInnerHTML={{ __html: html }} />;
  }
  return Object.assign(StaticPage, { preload: () => (sentHtml(path) === null ? Page.preload() : Promise.resolve()) });
}
