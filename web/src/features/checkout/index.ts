// /checkout/{slug}, loaded on first use (React.lazy): only buyers download it.
import { lazy } from 'react';

export const CheckoutPage = lazy(() => import('./routes/CheckoutPage').then((m) => ({ default: m.CheckoutPage })));
