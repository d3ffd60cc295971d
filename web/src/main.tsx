import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { seedQueryCache } from '@/app/initialData';
import { createQueryClient } from '@/app/queryClient';
import { preloadPage } from '@/app/shell';
import { markServerRenderedHead } from '@/lib/head';
import { readInitialData } from '@/lib/initialData';
import './index.css';

const queryClient = createQueryClient();
const { pathname } = window.location;
const serverRenderedHead = seedQueryCache(queryClient, readInitialData(), pathname);
markServerRenderedHead(serverRenderedHead ? pathname : null);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

// The first render waits for the page's own code (one chunk, already requested), so the page
// appears in one step; should that fail, the page's Suspense and error handling take over. It is
// a transition: React renders in slices that leave the main thread free between them, while the
// build's HTML (app/prerender.tsx) stays on screen until the page replaces it in one commit.
const render = () => {
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    ),
  );
};
preloadPage(pathname).then(render, render);
