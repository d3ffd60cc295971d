// /admin/wirewrite (spec section 2 "Admin: companion tool dashboard"): six cards, quick actions
// (one opens the companion app in a new tab) and the system status, all from one call. Load
// failures are logged only (spec section 8).
import { Link } from 'react-router';
import { LoadError } from '@/components/list/LoadError';
import { Loading } from '@/components/Spinner';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { useCompanionStats } from '../api/stats';
import { oneDecimal } from '../rules';

export function WireWriteDashboardPage() {
  const query = useCompanionStats();
  useLogLoadFailure('the WireWrite statistics', query.error);

  const s = query.data;
  return (
    <StaffPage title="WireWrite Admin" error={query.error} subtitle="The companion tool for electrical workers: users, promo codes and certificates.">

      {query.isPending ? (
        <Loading text="Loading ..." />
      ) : query.isError && !s ? (
        <LoadError error={query.error} title="The WireWrite statistics could not be loaded." retrying={query.isFetching} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <dl className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <StatCard label="Total Users" value={s?.total_users ?? 0} detail={`${String(s?.free_users ?? 0)} free, ${String(s?.pro_users ?? 0)} pro`} />
            <StatCard label="Pro Subscribers" value={s?.pro_users ?? 0} detail={`${oneDecimal(s?.conversion_rate ?? 0)}% conversion rate`} />
            <StatCard
              label="Total Certificates"
              value={s?.total_certificates ?? 0}
              detail={`${oneDecimal(s?.average_certificates_per_user ?? 0)} average per user`}
            />
            <StatCard label="Promo Codes Used" value={s?.promo_codes_used ?? 0} detail="Redemptions" />
            <StatCard label="Free Tier Users" value={s?.free_users ?? 0} detail="With ads" />
            <StatCard label="Inactive Accounts" value={s?.inactive_accounts ?? 0} detail="75+ days without activity" />
          </dl>

          <section aria-labelledby="quick-actions-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 id="quick-actions-heading" className="text-xl font-semibold text-slate-900">
              Quick Actions
            </h2>
            <div className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              <Link to="/admin/wirewrite/users" className="btn-primary">
                Manage Users
              </Link>
              <Link to="/admin/wirewrite/promo-codes" className="btn-primary">
                Promo Codes
              </Link>
              <Link to="/admin/wirewrite/certificates" className="btn-primary">
                Certificates
              </Link>
              {s ? (
                <a href={s.companion_app_url} target="_blank" rel="noopener noreferrer" className="btn-secondary">
                  Open WireWrite App
                </a>
              ) : null}
            </div>
          </section>

          <section aria-labelledby="system-status-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 id="system-status-heading" className="text-xl font-semibold text-slate-900">
              System Status
            </h2>
            <ul className="mt-4 divide-y divide-slate-100" aria-label="System status">
              <StatusRow label="Workflow" value="Active" ok />
              <StatusRow label="Email Service" value={s?.system.email_configured ? 'Configured' : 'Not configured'} ok={Boolean(s?.system.email_configured)} />
              <StatusRow
                label="Inactivity Deletion"
                value={s?.system.inactivity_deletion_enabled ? `Enabled (${String(s.system.inactivity_deletion_days)} days)` : 'Disabled'}
                ok={Boolean(s?.system.inactivity_deletion_enabled)}
              />
              <StatusRow label="Ad Service" value="Free Tier Only" ok />
            </ul>
          </section>
        </>
      )}
    </StaffPage>
  );
}

function StatCard({ label, value, detail }: { label: string; value: number; detail: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-2 text-3xl font-bold text-slate-900">{value}</dd>
      <dd className="mt-1 text-sm text-slate-500">{detail}</dd>
    </div>
  );
}

function StatusRow({ label, value, ok }: { label: string; value: string; ok: boolean }) {
  return (
    <li className="flex items-center justify-between py-3 text-sm">
      <span className="text-slate-700">{label}</span>
      <span className={ok ? 'font-medium text-green-700' : 'font-medium text-amber-700'}>{value}</span>
    </li>
  );
}
