// The app's error boundary, at the root (App.tsx) and around each page (RootLayout, reset when the
// path changes). A render error shows a plain message with Reload and is logged. A page's code that
// fails to load (its chunk is gone after a deploy replaced web/dist, or the network dropped)
// reloads the page once, to fetch the new build; should it fail again within RELOAD_WINDOW_MS of
// that reload, the message shows instead, so the page never reloads in a loop. It is in the first
// chunk on every page: keep it small (docs/performance.md).
import { Component, type ReactNode } from 'react';

export const RELOAD_KEY = 'storefront:chunk-reload';
export const RELOAD_WINDOW_MS = 300_000;

/** A dynamic import that failed: Chromium, Firefox, Safari, and the build's stylesheet loader. */
export function isChunkError(error: unknown): boolean {
  return error instanceof Error && /dynamically imported module|module script failed|^Unable to load /.test(error.message);
}

interface Props {
  children: ReactNode;
  /** A change of this (the path) clears a page's error. */
  at?: string;
}

/** 0: rendering the children; 1: reloading the page; 2: showing the message. */
interface State {
  s?: 0 | 1 | 2;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = {};

  static getDerivedStateFromError(error: unknown): State {
    try {
      // A reload may be tried when none is recorded within the window (no storage: never).
      return { s: isChunkError(error) && !(Date.now() - Number(sessionStorage.getItem(RELOAD_KEY)) < RELOAD_WINDOW_MS) ? 1 : 2 };
    } catch {
      return { s: 2 };
    }
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
    if (this.state.s === 1)
      try {
        sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
        location.reload();
      } catch {
        this.setState({ s: 2 }); // not recorded: no reload, or it could loop
      }
  }

  override componentDidUpdate(previous: Props) {
    if (previous.at !== this.props.at && this.state.s) this.setState({ s: 0 });
  }

  override render() {
    const { s } = this.state;
    return !s ? (
      this.props.children
    ) : s === 2 ? (
      <div role="alert" className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold text-slate-900">Something went wrong</h1>
        <p className="mt-3 text-slate-600">This page could not be shown.</p>
        <button type="button" className="btn-primary mt-8" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    ) : null;
  }
}
