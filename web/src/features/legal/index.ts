// /terms and /privacy, each a chunk of its own: their long copy is not part of the landing and
// product pages' JavaScript. Their first load shows the HTML the build wrote and loads neither
// (lib/staticPage.tsx); main.tsx preloads the one of the current URL otherwise (lib/lazyPage.tsx).
import { lazyPage } from '@/lib/lazyPage';
import { staticPage } from '@/lib/staticPage';

export const TermsPage = staticPage('/terms', lazyPage(() => import('./TermsPage').then((m) => m.TermsPage)));
export const PrivacyPage = staticPage('/privacy', lazyPage(() => import('./PrivacyPage').then((m) => m.PrivacyPage)));
