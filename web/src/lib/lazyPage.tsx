// React.lazy for a page that may be the first one a visitor sees. `preload()` starts loading its
// code; once loaded, the page renders synchronously, without passing through Suspense. main.tsx
// preloads the page of the current URL before the first render, so the landing and product pages
// can live in chunks of their own (neither carries the other's code, docs/performance.md) and
// still appear in one step, with no 'Loading ...' in between to shift the layout.
import { createElement, lazy, type ComponentType } from 'react';

export type LazyPage<P extends object> = ComponentType<P> & { preload: () => Promise<void> };

export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const start = () => {
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null; // a later render tries again
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => start().then((component) => ({ default: component })));
  const Page = (props: P) => (loaded ? createElement(loaded, props) : createElement(Lazy, props));
  return Object.assign(Page, { preload: () => start().then(() => undefined) });
}
