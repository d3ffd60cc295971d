import { useLocation } from 'react-router';
import { LandingPage } from '@/features/storefront';
import { useContactSales } from '../contactSales';

/** A page that sends the visitor home with something to say (closing an account) puts it in the history state. */
function noticeOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  const notice = state.notice;
  return typeof notice === 'string' && notice ? notice : null;
}

/** '/': the landing page, with the shell's Contact Sales dialog. */
export function LandingRoute() {
  const { openContactSales } = useContactSales();
  const notice = noticeOf(useLocation().state);
  return (
    <>
      {notice ? (
        <p role="status" className="mx-auto mt-4 max-w-4xl rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-green-800">
          {notice}
        </p>
      ) : null}
      <LandingPage onContactSales={openContactSales} />
    </>
  );
}
