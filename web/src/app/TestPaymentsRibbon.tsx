/**
 * The ribbon every page shows while the server takes Stripe test-mode payments
 * (STOREFRONT_ALLOW_TEST_PAYMENTS): nobody should take a test order for a real one.
 */
export function TestPaymentsRibbon() {
  return (
    <div
      role="note"
      aria-label="Test payments"
      className="sticky top-0 z-50 bg-amber-400 px-4 py-1 text-center text-sm font-semibold tracking-wide text-black"
    >
      TEST PAYMENTS: orders on this site are test orders, and no real money is taken.
    </div>
  );
}
