// An enterprise account's details for staff: its users (with the member limit) and its licences
// (seats changed, removed, added). Beyond the original, staff manage licences here.
import { useState, type SyntheticEvent } from 'react';
import type { BannerMessage } from '@/components/Banner';
import { FormField } from '@/components/FormField';
import { LOAD_ERROR_CLASS, LoadError } from '@/components/list/LoadError';
import { Loading } from '@/components/Spinner';
import { errorMessage, isApiError } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { useAddLicence } from '../api/addLicence';
import { useAdminAccount } from '../api/adminAccount';
import { useChangeLicence } from '../api/changeLicence';
import { useLicensableProducts } from '../api/products';
import { useRemoveLicence } from '../api/removeLicence';
import type { EnterpriseLicence } from '../api/schemas';
import { useUpdateAccount } from '../api/updateAccount';

export const NO_USERS_TEXT = 'No users yet';
export const NO_LICENSES_TEXT = 'No licenses assigned';

/** Percent of a licence's seats in use, whole numbers. */
export function percentUtilised(used: number, quantity: number): number {
  return quantity > 0 ? Math.round((used / quantity) * 100) : 0;
}

export function AccountDetails({
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
    return <LoadError className={`mt-4 ${LOAD_ERROR_CLASS}`} error={query.error} title="Could not load the details." retrying={query.isFetching} onRetry={() => void query.refetch()} />;
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
