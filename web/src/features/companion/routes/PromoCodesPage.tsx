// /admin/wirewrite/promo-codes (spec section 2 "Admin: promo codes"): Create Code toggles the form
// (code forced to upper case; empty numbers mean lifetime / unlimited / never), the table of codes
// newest first with Activate / Deactivate. A failed create says 'Failed to create promo code' (the
// server's field messages under their fields); load and toggle failures are logged only (spec section 8).
// The page lives in the address.
import { useState, type SyntheticEvent } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import { DataTable, type Column } from '@/components/DataTable';
import { FormField } from '@/components/FormField';
import { Badge } from '@/components/list/Badge';
import { useListState } from '@/components/list/useListState';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { isApiError } from '@/lib/api';
import type { ListSpec } from '@/lib/list';
import { promoCodeFormSchema, toNewPromoCode, useCreatePromoCode, type PromoCodeForm } from '../api/createPromoCode';
import { usePromoCodes, type PromoCode } from '../api/promoCodes';
import { useSetPromoCodeActive } from '../api/updatePromoCode';
import { durationText, expiryText, usageText, WIREWRITE_ADMIN } from '../rules';

const LIST: ListSpec<never> = { filters: [] };

const EMPTY_FORM: PromoCodeForm = { code: '', description: '', duration_months: '', max_uses: '', expires_days: '' };

export function PromoCodesPage() {
  const list = useListState(LIST);
  const [showForm, setShowForm] = useState(false);
  const [form, setForm] = useState<PromoCodeForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const query = usePromoCodes(list.params);
  const create = useCreatePromoCode();
  const toggle = useSetPromoCodeActive();
  useLogLoadFailure('promo codes', query.error);

  const set = (field: keyof PromoCodeForm) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const parsed = promoCodeFormSchema.safeParse(form);
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]);
        fieldErrors[key] ??= issue.message;
      }
      setErrors(fieldErrors);
      return;
    }
    setErrors({});
    create.mutate(toNewPromoCode(parsed.data), {
      onSuccess: (created) => {
        setForm(EMPTY_FORM);
        setShowForm(false);
        list.setPage(1);
        setMessage({ tone: 'success', text: `Promo code ${created.code} created.` });
      },
      onError: (error) => {
        // The reason, when the server gave one for a field (a taken code), shows under that field.
        if (isApiError(error)) setErrors(error.fields);
        setMessage({ tone: 'error', text: 'Failed to create promo code' });
      },
    });
  };

  const columns: Column<PromoCode>[] = [
    { key: 'code', header: 'Code', cell: (p) => <span className="font-mono font-semibold">{p.code}</span> },
    { key: 'description', header: 'Description', cell: (p) => p.description },
    { key: 'duration', header: 'Duration', cell: (p) => durationText(p.duration_months) },
    { key: 'usage', header: 'Usage', cell: (p) => usageText(p.uses_count, p.max_uses) },
    { key: 'expires', header: 'Expires', cell: (p) => expiryText(p.expires_at) },
    {
      key: 'status',
      header: 'Status',
      cell: (p) => (p.active ? <Badge tone="green">Active</Badge> : <Badge tone="grey">Inactive</Badge>),
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (p) => (
        <button
          type="button"
          className="btn-secondary"
          aria-label={`${p.active ? 'Deactivate' : 'Activate'} ${p.code}`}
          disabled={toggle.isPending}
          onClick={() =>
            toggle.mutate({ id: p.id, active: !p.active }, { onError: (error) => console.error('Failed to toggle promo code', error) })
          }
        >
          {p.active ? 'Deactivate' : 'Activate'}
        </button>
      ),
    },
  ];

  return (
    <StaffPage
      title="Promo Codes"
      back={WIREWRITE_ADMIN}
      error={query.error}
      actions={
        <button type="button" className="btn-primary" aria-expanded={showForm} onClick={() => setShowForm((v) => !v)}>
          Create Code
        </button>
      }
    >
      <Banner message={message} onDismiss={() => setMessage(null)} />

      {showForm ? (
        <form onSubmit={submit} noValidate aria-label="Create promo code" className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:grid-cols-2">
          <FormField
            label="Code"
            requiredMark
            required
            maxLength={40}
            value={form.code}
            error={errors.code}
            hint="Upper case letters, digits, - and _"
            onChange={(e) => set('code')(e.target.value.toUpperCase())}
          />
          <FormField label="Description" requiredMark required maxLength={500} value={form.description} error={errors.description} onChange={(e) => set('description')(e.target.value)} />
          <FormField
            label="Duration (months)"
            type="number"
            min={1}
            step={1}
            value={form.duration_months}
            error={errors.duration_months}
            hint="Empty means lifetime"
            onChange={(e) => set('duration_months')(e.target.value)}
          />
          <FormField
            label="Max Uses"
            type="number"
            min={1}
            step={1}
            value={form.max_uses}
            error={errors.max_uses}
            hint="Empty means unlimited"
            onChange={(e) => set('max_uses')(e.target.value)}
          />
          <FormField
            label="Expires In (days)"
            type="number"
            min={1}
            step={1}
            value={form.expires_days}
            error={errors.expires_days}
            hint="Empty means the code never expires"
            onChange={(e) => set('expires_days')(e.target.value)}
          />
          <div className="flex items-end">
            <button type="submit" className="btn-primary" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Promo Code'}
            </button>
          </div>
        </form>
      ) : null}

      <DataTable
        caption="Promo codes"
        columns={columns}
        rows={query.data?.items}
        rowKey={(p) => p.id}
        loading={query.isFetching}
        emptyText="No promo codes yet. Create your first one above!"
        page={list.page}
        total={query.data?.total ?? 0}
        onPageChange={list.setPage}
        rowClassName={(p) => (p.active ? '' : 'opacity-50')}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    </StaffPage>
  );
}
