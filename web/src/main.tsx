import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from '@/app/App';
import { seedQueryCache } from '@/app/initialData';
import { createQueryClient } from '@/app/queryClient';
import { routes } from '@/app/routes';
import { markServerRenderedHead } from '@/lib/head';
import { readInitialData } from '@/lib/initialData';
import './index.css';

const queryClient = createQueryClient();
const { pathname } = window.location;
const serverRenderedHead = seedQueryCache(queryClient, readInitialData(), pathname);
markServerRenderedHead(serverRenderedHead ? pathname : null);

const router = createBrowserRouter(routes);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>,
);
