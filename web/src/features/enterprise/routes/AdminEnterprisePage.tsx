// /admin/enterprise (spec section 2 "Admin: Enterprise Account Management"): the Create Account
// form, then the accounts newest first as cards (admin, billing, created date, Active/Inactive,
// Activate/Deactivate, counts of users and licences, View Details / Hide Details with the users
// and licences). Beyond the original, staff set the member limit and manage licences here.
import { useRef, useState, type SyntheticEvent, type RefObject } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import { FormField } from '@/components/FormField';
import { Loading } from '@/components/Spinner';
import { errorMessage, isApiError } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { useAddLicence } from '../api/addLicence';
import { useAdminAccount } from '../api/adminAccount';
import { ADMIN_PAGE_SIZE, useAdminAccounts } from '../api/adminAccounts';
import { useChangeLicence } from '../api/changeLicence';
import { useCreateAccount } from '../api/createAccount';
import { useLicensableProducts } from '../api/products';
import { useRemoveLicence } from '../api/removeLicence';
import type { EnterpriseAccount, EnterpriseLicence } from '../api/schemas';
import { useUpdateAccount } from '../api/updateAccount';
import { StatusBadge } from '../components/StatusBadge';

const HEAD = { title: `Enterprise Account Management | ${SITE_NAME}`, robots: 'noindex' };

export const NO_ACCOUNTS_TEXT = 'No enterprise accounts yet';
export const CREATE_FIRST_TEXT = 'Create your first enterprise account';
export const NO_USERS_TEXT = 'No users yet';
export const NO_LICENSES_TEXT = 'No licenses assigned';

/** '1 user', '3 users'. */
function count(n: number, singular: string): string {
  return `${String(n)} ${n === 1 ? singular : `${singular}s`}`;
}

/** Percent of a licence's seats in use, whole numbers. */
export function percentUtilised(used: number, quantity: number): number {
  return quantity > 0 ? Math.round((used / quantity) * 100) : 0;
}

export function AdminEnterprisePage() {
  useDocumentHead(HEAD);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [banner, setBanner] = useState<BannerMessage | null>(null);
  const companyRef = useRef<HTMLInputElement>(null);
  const query = useAdminAccounts(page, search);

  const items = query.data?.items ?? [];
  const total = query.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Enterprise Account Management</h1>
      <div className="mt-4">
        <Banner message={banner} onDismiss={() => setBanner(null)} />
      </div>
      <CreateAccountForm companyRef={companyRef} onCreated={(text) => setBanner({ tone: 'success', text })} />

      <section aria-labelledby="accounts-heading" className="mt-10">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="accounts-heading" className="text-xl font-semibold text-slate-900">
            Enterprise Accounts
          </h2>
          <label className="text-sm text-slate-700">
            <span className="sr-only">Search accounts</span>
            <input
              type="search"
              className="field-input"
              placeholder="Search company or email"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setPage(1);
              }}
            />
          </label>
        </div>
        {query.isPending ? (
          <Loading text="Loading enterprise accounts..." />
        ) : query.isError ? (
          <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {errorMessage(query.error, 'Could not load the enterprise accounts.')}
          </p>
        ) : items.length === 0 ? (
          <div className="mt-4 rounded-2xl border border-dashed border-slate-300 p-8 text-center">
            <p className="text-slate-600">{NO_ACCOUNTS_TEXT}</p>
            {search ? null : (
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
        {pages > 1 ? (
          <nav aria-label="Pages" className="mt-6 flex items-center justify-between">
            <button type="button" className="btn-secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </button>
            <span className="text-sm text-slate-600">
              Page {page} of {pages}
            </span>
            <button type="button" className="btn-secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </nav>
        ) : null}
      </section>
    </div>
  );
}

function CreateAccountForm({
  companyRef,
  onCreated,
}: {
  companyRef: RefObject<HTMLInputElement | null>;
  onCreated: (text: string) => void;
}) {
  const [company, setCompany] = useState('');
  const [billing, setBilling] = useState('');
  const [adminEmail, setAdminEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const mutation = useCreateAccount();

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setFields({});
    mutation.mutate(
      { company_name: company.trim(), billing_email: billing.trim(), admin_email: adminEmail.trim() },
      {
        onSuccess: (created) => {
          setCompany('');
          setBilling('');
          setAdminEmail('');
          onCreated(
            created.admin_invited
              ? `Enterprise account created. An invitation was sent to ${created.account.admin.email ?? 'the admin'}.`
              : 'Enterprise account created.',
          );
        },
        onError: (failure) => {
          if (isApiError(failure)) setFields(failure.fields);
          setError(`Error creating account: ${errorMessage(failure)}`);
        },
      },
    );
  };

  return (
    <section aria-labelledby="create-heading" className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="create-heading" className="text-xl font-semibold text-slate-900">
        Create Account
      </h2>
      <form className="mt-4 grid gap-4 sm:grid-cols-3" onSubmit={submit}>
        <FormField
          label="Company Name"
          name="company_name"
          required
          requiredMark
          inputRef={companyRef}
          value={company}
          onChange={(event) => setCompany(event.target.value)}
          error={fields.company_name}
        />
        <FormField
          label="Billing Email"
          name="billing_email"
          type="email"
          required
          requiredMark
          value={billing}
          onChange={(event) => setBilling(event.target.value)}
          error={fields.billing_email}
        />
        <FormField
          label="Admin Email"
          name="admin_email"
          type="email"
          required
          requiredMark
          value={adminEmail}
          onChange={(event) => setAdminEmail(event.target.value)}
          error={fields.admin_email}
        />
        <div className="sm:col-span-3">
          <button type="submit" className="btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? 'Creating...' : 'Create Account'}
          </button>
        </div>
      </form>
      {error ? (
        <p role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </section>
  );
}

function AccountCard({ account, onMessage }: { account: EnterpriseAccount; onMessage: (message: BannerMessage) => void }) {
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
            <StatusBadge active={account.is_active} />
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

function AccountDetails({
  accountId,
  maxLicenses,
  onMessage,
}: {
  accountId: string;
  maxLicenses: number;
  onMessage: (message: BannerMessage) => void;
}) {
  const query = useAdminAccount(accountId, true);
  if (query.isPending) return <Loading text="Loading details..." className="flex items-center py-6" />;
  if (query.isError)
    return (
      <p role="alert" className="mt-4 text-sm text-red-800">
        {errorMessage(query.error, 'Could not load the details.')}
      </p>
    );
  const { members, licences } = query.data;
  return (
    <div className="mt-6 grid gap-8 border-t border-slate-100 pt-6 lg:grid-cols-2">
      <section aria-label="Users">
        <h4 className="font-semibold text-slate-900">Users</h4>
        {members.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{NO_USERS_TEXT}</p>
        ) : (
          <table className="mt-2 w-full text-left text-sm">
            <thead className="text-slate-500">
              <tr>
                <th scope="col" className="py-1 font-medium">
                  Email
                </th>
                <th scope="col" className="py-1 font-medium">
                  Role
                </th>
                <th scope="col" className="py-1 font-medium">
                  Added
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.id} className="border-t border-slate-100">
                  <td className="py-1">{member.email ?? 'Deleted user'}</td>
                  <td className="py-1">{member.role}</td>
                  <td className="py-1">{formatDate(member.added_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <MemberLimitForm accountId={accountId} maxLicenses={maxLicenses} onMessage={onMessage} />
      </section>
      <section aria-label="Licenses">
        <h4 className="font-semibold text-slate-900">Licenses</h4>
        {licences.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{NO_LICENSES_TEXT}</p>
        ) : (
          <ul className="mt-2 space-y-3">
            {licences.map((licence) => (
              <LicenceRow key={licence.id} accountId={accountId} licence={licence} onMessage={onMessage} />
            ))}
          </ul>
        )}
        <AddLicenceForm accountId={accountId} licensed={licences.map((licence) => licence.product.id)} onMessage={onMessage} />
      </section>
    </div>
  );
}

function MemberLimitForm({
  accountId,
  maxLicenses,
  onMessage,
}: {
  accountId: string;
  maxLicenses: number;
  onMessage: (message: BannerMessage) => void;
}) {
  const [value, setValue] = useState(String(maxLicenses));
  const update = useUpdateAccount();
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.mutate(
      { id: accountId, changes: { max_licenses: Number(value) } },
      {
        onSuccess: () => onMessage({ tone: 'success', text: 'Member limit saved.' }),
        onError: (failure) => onMessage({ tone: 'error', text: errorMessage(failure, 'Failed to save the member limit') }),
      },
    );
  };
  return (
    <form className="mt-4 flex items-end gap-2" onSubmit={submit}>
      <FormField label="Member limit" name="max_licenses" type="number" min={0} step={1} value={value} onChange={(event) => setValue(event.target.value)} />
      <button type="submit" className="btn-secondary" disabled={update.isPending}>
        Save Limit
      </button>
    </form>
  );
}

function LicenceRow({
  accountId,
  licence,
  onMessage,
}: {
  accountId: string;
  licence: EnterpriseLicence;
  onMessage: (message: BannerMessage) => void;
}) {
  const [quantity, setQuantity] = useState(String(licence.quantity));
  const change = useChangeLicence();
  const remove = useRemoveLicence();
  const save = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    change.mutate(
      { accountId, licenceId: licence.id, quantity: Number(quantity) },
      {
        onError: (failure) => {
          setQuantity(String(licence.quantity));
          onMessage({ tone: 'error', text: isApiError(failure) && failure.fields.quantity ? failure.fields.quantity : errorMessage(failure) });
        },
      },
    );
  };
  return (
    <li className="rounded-lg border border-slate-100 p-3 text-sm">
      <p className="font-medium text-slate-900">{licence.product.name}</p>
      <p className="text-slate-600">
        {licence.used_count} / {licence.quantity} used · {percentUtilised(licence.used_count, licence.quantity)}% utilised
      </p>
      <form className="mt-2 flex items-end gap-2" onSubmit={save}>
        <FormField
          label={`Seats of ${licence.product.name}`}
          name="quantity"
          type="number"
          min={0}
          step={1}
          value={quantity}
          onChange={(event) => setQuantity(event.target.value)}
        />
        <button type="submit" className="btn-secondary" disabled={change.isPending}>
          Save
        </button>
        <button
          type="button"
          className="btn-secondary text-red-700"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(
              { accountId, licenceId: licence.id },
              { onError: (failure) => onMessage({ tone: 'error', text: errorMessage(failure, 'Failed to remove the licence') }) },
            )
          }
        >
          Remove
        </button>
      </form>
    </li>
  );
}

function AddLicenceForm({
  accountId,
  licensed,
  onMessage,
}: {
  accountId: string;
  licensed: string[];
  onMessage: (message: BannerMessage) => void;
}) {
  const products = useLicensableProducts(true);
  const [productId, setProductId] = useState('');
  const [quantity, setQuantity] = useState('1');
  const add = useAddLicence();
  const choices = (products.data?.products ?? []).filter((product) => !licensed.includes(product.id));
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!productId) return;
    add.mutate(
      { accountId, productId, quantity: Number(quantity) },
      {
        onSuccess: () => {
          setProductId('');
          setQuantity('1');
        },
        onError: (failure) => onMessage({ tone: 'error', text: errorMessage(failure, 'Failed to add the licence') }),
      },
    );
  };
  return (
    <form className="mt-4 flex flex-wrap items-end gap-2" onSubmit={submit} aria-label="Add licence">
      <label className="block text-sm font-medium text-slate-700">
        Product
        <select className="field-input mt-1" value={productId} onChange={(event) => setProductId(event.target.value)} required>
          <option value="">Choose a product</option>
          {choices.map((product) => (
            <option key={product.id} value={product.id}>
              {product.name}
            </option>
          ))}
        </select>
      </label>
      <FormField label="Seats" name="new_quantity" type="number" min={0} step={1} value={quantity} onChange={(event) => setQuantity(event.target.value)} />
      <button type="submit" className="btn-primary" disabled={add.isPending || !productId}>
        Add Licence
      </button>
    </form>
  );
}
