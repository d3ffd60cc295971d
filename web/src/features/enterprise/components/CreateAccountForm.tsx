// The staff's Create Account form (spec section 2 "Admin: Enterprise Account Management"):
// company, billing email and the admin's email; the server's field messages under their fields.
import { useState, type RefObject, type SyntheticEvent } from 'react';
import { FormAlert } from '@/components/detail';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { useCreateAccount } from '../api/createAccount';

export function CreateAccountForm({
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
    <section aria-labelledby="create-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
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
      <FormAlert tone="error" className="mt-3">{error}</FormAlert>
    </section>
  );
}
