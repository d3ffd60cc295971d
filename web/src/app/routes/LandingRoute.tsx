import { LandingPage } from '@/features/storefront';
import { useContactSales } from '../contactSales';

/** '/': the landing page, with the shell's Contact Sales dialog. */
export function LandingRoute() {
  const { openContactSales } = useContactSales();
  return <LandingPage onContactSales={openContactSales} />;
}
