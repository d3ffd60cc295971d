// One enterprise account in the staff's list: admin, billing, created date, Active/Inactive with
// Activate/Deactivate, the counts of users and licences, and View Details / Hide Details.
import { useState } from 'react';
import type { BannerMessage } from '@/components/Banner';
import { Badge } from '@/components/list/Badge';
import { errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import type { EnterpriseAccount } from '../api/schemas';
import { useUpdateAccount } from '../api/updateAccount';
import { AccountDetails } from './AccountDetails';

/** '1 user', '3 users'. */
function count(n: number, singular: string): string {
  return `${String(n)} ${n === 1 ? singular : `${singular}s`}`;
}

export function AccountCard({ account, onMessage }: { account: EnterpriseAccount; onMessage: (message: BannerMessage) => void }) {
  const [open, setOpen] = useState(false);
  const update = useUpdateAccount();
  const detailsId = `account-details-${account.id}`;

  const toggleActive = () =>
    update.mutate(
      { id: account.id, changes: { is_active: !account.is_active } },
      { onError: (failure) => onMessage({ tone: 'error', text: errorMessage(failure, 'Failed to update the account') }) },
    );

  return (
    <li>
      <article aria-label={account.company_name} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h3 className="text-lg font-semibold text-slate-900">{account.company_name}</h3>
            <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm text-slate-600 sm:grid-cols-3">
              <div>
                <dt className="inline font-medium">Admin: </dt>
                <dd className="inline">{account.admin.email ?? 'Unknown'}</dd>
              </div>
              <div>
                <dt className="inline font-medium">Billing: </dt>
                <dd className="inline">{account.billing_email}</dd>
              </div>
              <div>
                <dt className="inline font-medium">Created: </dt>
                <dd className="inline">{formatDate(account.created_at)}</dd>
              </div>
            </dl>
          </div>
          <div className="flex items-center gap-3">
            {account.is_active ? <Badge tone="green">Active</Badge> : <Badge tone="grey">Inactive</Badge>}
            <button type="button" className="btn-secondary" onClick={toggleActive} disabled={update.isPending}>
              {account.is_active ? 'Deactivate' : 'Activate'}
            </button>
          </div>
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-6 text-sm text-slate-700">
          <span>{count(account.user_count, 'user')}</span>
          <span>{count(account.license_count, 'license')}</span>
          <span>Limit: {account.max_licenses} members</span>
          <button
            type="button"
            className="ml-auto font-medium text-brand-700 hover:underline"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide Details' : 'View Details'}
          </button>
        </div>
        {open ? (
          <div id={detailsId}>
            <AccountDetails accountId={account.id} maxLicenses={account.max_licenses} onMessage={onMessage} />
          </div>
        ) : null}
      </article>
    </li>
  );
}
