// The route table and the server read one manifest (pages.json): every page the router knows is in
// it, and every page in it is routed, so the server's 200-vs-404 and head tags cannot drift from
// the app. (server/tests/unit/seo_head_test.cpp checks the server's side against the same file.)
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import pages from './pages.json';
import { isPageKind, routes } from './routes';

function routedPaths(list: RouteObject[], base: string): string[] {
  return list.flatMap((route) => {
    const here = route.index ? base : route.path ? `${base === '/' ? '' : base}/${route.path}` : base;
    // A route with children is a layout; its pages are the leaves.
    const own = !route.children && (route.index || route.path) ? [here] : [];
    return [...own, ...routedPaths(route.children ?? [], here)];
  });
}

describe('pages.json', () => {
  const routed = routedPaths(routes, '/');
  // Rendered by the server from the catalogue, and the catch-all.
  const serverRendered = ['/', '/product/:slug', '/*'];

  it('lists every routed page, and the router routes every listed page', () => {
    const listed = pages.pages.map((page) => page.path).sort();
    expect(routed.filter((path) => !serverRendered.includes(path)).sort()).toEqual(listed);
  });

  it('has one entry per path, each with its access and a title', () => {
    const paths = pages.pages.map((page) => page.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const page of pages.pages) {
      expect(['public', 'user', 'admin']).toContain(page.access);
      expect(page.title.length).toBeGreaterThan(0);
      expect(page.path.startsWith(page.access === 'admin' ? '/admin' : '/')).toBe(true);
    }
  });

  it('names only page kinds the app renders', () => {
    for (const page of pages.pages) expect(isPageKind(page.page), page.page).toBe(true);
    expect(isPageKind('pending')).toBe(false);
  });
});
