// /admin/wirewrite/promo-codes (spec section 2 "Admin: promo codes"): Create Code toggles the form
// (code forced to upper case; empty numbers mean lifetime / unlimited / never), the table of codes
// newest first with Activate / Deactivate. A failed create says 'Failed to create promo code' (the
// server's field messages under their fields); load and toggle failures are logged only (spec section 8).
import { useEffect, useState, type SyntheticEvent } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import { DataTable, type Column } from '@/components/DataTable';
import { FormField } from '@/components/FormField';
import { isApiError } from '@/lib/api';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { promoCodeFormSchema, toNewPromoCode, useCreatePromoCode, type PromoCodeForm } from '../api/createPromoCode';
import { PAGE_SIZE } from '../api/keys';
import { usePromoCodes, type PromoCode } from '../api/promoCodes';
import { useSetPromoCodeActive } from '../api/updatePromoCode';
import { BackLink } from '../components/BackLink';
import { durationText, expiryText, usageText } from '../rules';

const HEAD = { title: `Promo Codes | ${SITE_NAME}`, robots: 'noindex' };

const EMPTY_FORM: PromoCodeForm = { code: '', description: '', duration_months: '', max_uses: '', expires_days: '' };

export function PromoCodesPage() {
  useDocumentHead(HEAD);
  const [page, setPage] = useState(1);
  const [showForm, setShowForm] = useState(false);
  const [form, setForm] = useState<PromoCodeForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const query = usePromoCodes(page);
  const create = useCreatePromoCode();
  const toggle = useSetPromoCodeActive();

  useEffect(() => {
    if (query.error) console.error('Failed to load promo codes', query.error);
  }, [query.error]);

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
        setPage(1);
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
      cell: (p) => (
        <span className={p.active ? 'font-medium text-green-700' : 'font-medium text-slate-500'}>{p.active ? 'Active' : 'Inactive'}</span>
      ),
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
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <BackLink />
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Promo Codes</h1>
        <button type="button" className="btn-primary" aria-expanded={showForm} onClick={() => setShowForm((v) => !v)}>
          Create Code
        </button>
      </div>
      <div className="mt-4">
        <Banner message={message} onDismiss={() => setMessage(null)} />
      </div>

      {showForm ? (
        <form onSubmit={submit} noValidate aria-label="Create promo code" className="mt-6 grid gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:grid-cols-2">
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

      <div className="mt-6">
        <DataTable
          caption="Promo codes"
          columns={columns}
          rows={query.data?.items}
          rowKey={(p) => p.id}
          loading={query.isFetching}
          emptyText="No promo codes yet. Create your first one above!"
          page={page}
          pageSize={PAGE_SIZE}
          total={query.data?.total ?? 0}
          onPageChange={setPage}
          rowClassName={(p) => (p.active ? '' : 'opacity-50')}
        />
      </div>
    </div>
  );
}
