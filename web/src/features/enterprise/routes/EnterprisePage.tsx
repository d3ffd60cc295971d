// /enterprise (spec section 2 "Enterprise management"): the account the signed-in person
// administers: company, billing email, licence usage and status; the add-member form; the team
// with a remove action per member. Without an account: 'No Enterprise Account' and Contact Sales
// (the app shell's dialog, opened through onContactSales).
import { useState, type SyntheticEvent } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormField } from '@/components/FormField';
import { Badge } from '@/components/list/Badge';
import { LOAD_ERROR_CLASS, LoadError } from '@/components/list/LoadError';
import { Loading } from '@/components/Spinner';
import { errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { useAddMember } from '../api/addMember';
import { useRemoveMember } from '../api/removeMember';
import type { EnterpriseAccountDetails, EnterpriseLicence, EnterpriseMember } from '../api/schemas';
import { useTeam } from '../api/team';
import { FormAlert } from '@/components/detail/FormAlert';

const HEAD = { title: `Enterprise Management | ${SITE_NAME}`, robots: 'noindex' };

export const NO_ACCOUNT_TITLE = 'No Enterprise Account';
export const NO_ACCOUNT_TEXT = 'Contact sales to set up an enterprise account for your organization.';
export const REMOVE_MEMBER_QUESTION = 'Remove this member from the enterprise account?';
export const ADD_MEMBER_FAILED = 'Failed to add member';

interface EnterprisePageProps {
  /** Opens the Contact Sales dialog (the app shell owns it). */
  onContactSales: () => void;
}

export function EnterprisePage({ onContactSales }: EnterprisePageProps) {
  useDocumentHead(HEAD);
  const query = useTeam();

  let body;
  if (query.isPending) body = <Loading text="Loading enterprise account..." />;
  else if (query.isError)
    body = <LoadError className={`mt-8 ${LOAD_ERROR_CLASS}`} error={query.error} title="Could not load your enterprise account." retrying={query.isFetching} onRetry={() => void query.refetch()} />;
  else if (query.data === null) body = <NoAccount onContactSales={onContactSales} />;
  else body = <Team details={query.data} />;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Enterprise Management</h1>
      {body}
    </div>
  );
}

function NoAccount({ onContactSales }: EnterprisePageProps) {
  return (
    <section aria-labelledby="no-account-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
      <h2 id="no-account-heading" className="text-xl font-semibold text-slate-900">
        {NO_ACCOUNT_TITLE}
      </h2>
      <p className="mt-2 text-slate-600">{NO_ACCOUNT_TEXT}</p>
      <button type="button" className="btn-primary mt-6" onClick={onContactSales}>
        Contact Sales
      </button>
    </section>
  );
}

function Team({ details }: { details: EnterpriseAccountDetails }) {
  const { account, members, licences } = details;
  return (
    <>
      <section aria-labelledby="account-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="account-heading" className="text-xl font-semibold text-slate-900">
            {account.company_name}
          </h2>
          {account.is_active ? <Badge tone="green">Active</Badge> : <Badge tone="grey">Inactive</Badge>}
        </div>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm font-medium text-slate-500">Billing Email</dt>
            <dd className="mt-1 text-slate-900">{account.billing_email}</dd>
          </div>
          <div>
            <dt className="text-sm font-medium text-slate-500">Licence Usage</dt>
            <dd className="mt-1 text-slate-900">
              {account.member_count} of {account.max_licenses} licences used
            </dd>
          </div>
        </dl>
        {account.is_active ? null : (
          <p className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            This enterprise account is inactive: members have no access to its products, and no members can be added. Contact sales
            to reactivate it.
          </p>
        )}
        {licences.length > 0 ? (
          <div className="mt-6">
            <h3 className="text-sm font-medium text-slate-500">Product Licences</h3>
            <ul className="mt-2 space-y-1 text-slate-900" aria-label="Product licences">
              {licences.map((licence) => (
                <li key={licence.id}>
                  {licence.product.name}: {licence.used_count} of {licence.quantity} seats in use
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>

      <AddMemberForm disabled={!account.is_active} />
      <MemberList members={members} licences={licences} />
    </>
  );
}

function AddMemberForm({ disabled }: { disabled: boolean }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const mutation = useAddMember();

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setAdded(null);
    const trimmed = email.trim();
    if (!trimmed) {
      setError('Email is required.');
      return;
    }
    mutation.mutate(trimmed, {
      onSuccess: () => {
        setAdded(`${trimmed} was added to the team.`);
        setEmail('');
      },
      onError: (failure) => setError(errorMessage(failure, ADD_MEMBER_FAILED)),
    });
  };

  return (
    <section aria-labelledby="add-member-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="add-member-heading" className="text-xl font-semibold text-slate-900">
        Add Team Member
      </h2>
      <form className="mt-4 flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
        <FormField
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          wrapperClassName="min-w-64 flex-1"
          disabled={disabled}
        />
        <button type="submit" className="btn-primary" disabled={disabled || mutation.isPending}>
          {mutation.isPending ? 'Adding...' : 'Add Member'}
        </button>
      </form>
      <FormAlert tone="error" className="mt-3">
        {error}
      </FormAlert>
      <FormAlert tone="success" className="mt-3">
        {added}
      </FormAlert>
    </section>
  );
}

function MemberList({ members, licences }: { members: EnterpriseMember[]; licences: EnterpriseLicence[] }) {
  const [removing, setRemoving] = useState<EnterpriseMember | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mutation = useRemoveMember();

  const confirm = () => {
    if (!removing) return;
    setError(null);
    mutation.mutate(removing.id, {
      onSuccess: () => setRemoving(null),
      onError: (failure) => {
        setRemoving(null);
        setError(errorMessage(failure, 'Failed to remove member'));
      },
    });
  };

  return (
    <section aria-labelledby="members-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="members-heading" className="text-xl font-semibold text-slate-900">
        Team Members
      </h2>
      <FormAlert tone="error" className="mt-3">
        {error}
      </FormAlert>
      <ul className="mt-4 divide-y divide-slate-100" aria-label="Team members">
        {members.map((member) => {
          const label = member.email ?? member.full_name ?? 'Deleted user';
          const withoutSeat = licences.filter((licence) => !member.seat_product_ids.includes(licence.product.id));
          return (
            <li key={member.id} className="flex flex-wrap items-center gap-4 py-4">
              <div className="min-w-0 flex-1">
                <p className="font-semibold text-slate-900">{label}</p>
                <p className="text-sm text-slate-600">
                  {member.role === 'admin' ? 'Admin' : 'Member'} · added {formatDate(member.added_at)}
                  {member.full_name && member.email ? <> · {member.full_name}</> : null}
                </p>
                {withoutSeat.map((licence) => (
                  <p key={licence.id} className="text-sm text-amber-800">
                    No {licence.product.name} seat: all {licence.quantity} are in use.
                  </p>
                ))}
              </div>
              {member.role === 'admin' ? null : (
                <button type="button" className="btn-secondary" aria-label={`Remove ${label}`} onClick={() => setRemoving(member)}>
                  Remove
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        title="Remove Member"
        message={REMOVE_MEMBER_QUESTION}
        confirmLabel="Remove"
        danger
        busy={mutation.isPending}
        onConfirm={confirm}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
