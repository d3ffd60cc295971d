/** The worker's tier: Pro (purple) or Free (grey). */
export function TierBadge({ entitlement }: { entitlement: string }) {
  const pro = entitlement === 'pro';
  return (
    <span
      className={
        pro
          ? 'inline-flex rounded-full bg-purple-100 px-2.5 py-0.5 text-xs font-semibold text-purple-800'
          : 'inline-flex rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700'
      }
    >
      {pro ? 'Pro' : 'Free'}
    </span>
  );
}
