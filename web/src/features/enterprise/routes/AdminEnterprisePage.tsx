// /admin/enterprise (spec section 2 "Admin: Enterprise Account Management"): the Create Account
// form, then the accounts newest first as cards (components/AccountCard), searched by company or
// email and paged by the server; the search and the page live in the address.
import { useRef, useState } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import { Pager } from '@/components/list/Pager';
import { SearchField } from '@/components/list/SearchField';
import { useListState } from '@/components/list/useListState';
import { LOAD_ERROR_CLASS, LoadError } from '@/components/list/LoadError';
import { Loading } from '@/components/Spinner';
import { StaffPage } from '@/components/StaffPage';
import type { ListSpec } from '@/lib/list';
import { useAdminAccounts } from '../api/adminAccounts';
import { AccountCard } from '../components/AccountCard';
import { CreateAccountForm } from '../components/CreateAccountForm';

export const NO_ACCOUNTS_TEXT = 'No enterprise accounts yet';
export const CREATE_FIRST_TEXT = 'Create your first enterprise account';

const LIST: ListSpec<'q'> = { filters: ['q'] };

export function AdminEnterprisePage() {
  const list = useListState(LIST);
  const [banner, setBanner] = useState<BannerMessage | null>(null);
  const companyRef = useRef<HTMLInputElement>(null);
  const query = useAdminAccounts(list.params);
  const items = query.data?.items ?? [];

  return (
    <StaffPage title="Enterprise Account Management" error={query.error}>
      <Banner message={banner} onDismiss={() => setBanner(null)} />
      <CreateAccountForm companyRef={companyRef} onCreated={(text) => setBanner({ tone: 'success', text })} />

      <section aria-labelledby="accounts-heading" className="pt-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="accounts-heading" className="text-xl font-semibold text-slate-900">
            Enterprise Accounts
          </h2>
          <SearchField label="Search accounts" placeholder="Search company or email" value={list.filters.q} onSearch={(q) => list.setFilters({ q })} />
        </div>
        {query.isPending ? (
          <Loading text="Loading enterprise accounts..." />
        ) : query.isError ? (
          <LoadError className={`mt-4 ${LOAD_ERROR_CLASS}`} error={query.error} title="Could not load the enterprise accounts." retrying={query.isFetching} onRetry={() => void query.refetch()} />
        ) : items.length === 0 ? (
          <div className="mt-4 rounded-2xl border border-dashed border-slate-300 p-8 text-center">
            <p className="text-slate-600">{NO_ACCOUNTS_TEXT}</p>
            {list.filtered ? null : (
              <button type="button" className="mt-2 font-medium text-brand-700 hover:underline" onClick={() => companyRef.current?.focus()}>
                {CREATE_FIRST_TEXT}
              </button>
            )}
          </div>
        ) : (
          <ul className="mt-4 space-y-4" aria-label="Enterprise accounts">
            {items.map((account) => (
              <AccountCard key={account.id} account={account} onMessage={setBanner} />
            ))}
          </ul>
        )}
        <Pager
          label="Enterprise accounts"
          page={list.page}
          total={query.data?.total ?? 0}
          rows={items.length}
          totalCapped={query.data?.total_capped ?? false}
          busy={query.isFetching}
          onPageChange={list.setPage}
        />
      </section>
    </StaffPage>
  );
}
