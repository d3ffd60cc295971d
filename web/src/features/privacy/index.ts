// "Your Data" (/account/privacy): download a copy of everything held about the account, or close
// it (docs/privacy.md). Loads on first use, like the other signed-in pages.
import { lazy } from 'react';

export const YourDataPage = lazy(() => import('./routes/YourDataPage').then((m) => ({ default: m.YourDataPage })));
