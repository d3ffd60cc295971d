// /terms and /privacy, each a chunk of its own: their long copy is not part of the landing and
// product pages' JavaScript. main.tsx preloads the one of the current URL (lib/lazyPage.tsx).
import { lazyPage } from '@/lib/lazyPage';

export const TermsPage = lazyPage(() => import('./TermsPage').then((m) => m.TermsPage));
export const PrivacyPage = lazyPage(() => import('./PrivacyPage').then((m) => m.PrivacyPage));
