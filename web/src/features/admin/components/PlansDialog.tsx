// 'Pricing Plans - <product name>': the product's plans with Edit and Delete, and the form
// 'Add New Plan' / 'Edit Plan'. The price is typed in major units and sent as typed ("19.99");
// the server stores it ×100 exactly. Messages show in the dialog (the page behind is inert).
import { useState, type SyntheticEvent } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import { Dialog, DialogCloseButton } from '@/components/Dialog';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { billingFrequencyText, formatMoney } from '@/lib/format';
import { useCreatePlan } from '../api/createPlan';
import { useDeletePlan } from '../api/deletePlan';
import { buildPlanBody, EMPTY_PLAN_FORM, MAX_TRIAL_DAYS, planFormValuesOf, type PlanFormValues } from '../api/planForm';
import type { FieldErrors } from '../api/productForm';
import { CURRENCIES, FREQUENCY_UNITS, FREQUENCY_VALUES, type AdminPlan, type AdminProduct } from '../api/schemas';
import { useUpdatePlan } from '../api/updatePlan';
import { SelectField } from '@/components/SelectField';

export const PLAN_SAVED = 'Pricing plan saved successfully!';
export const PLAN_DELETED = 'Pricing plan deleted!';
export const PLAN_SAVE_FAILED = 'Failed to save pricing plan';
export const PLAN_DELETE_QUESTION = 'Are you sure you want to delete this pricing plan?';

interface PlansDialogProps {
  product: AdminProduct;
  onClose: () => void;
}

export function PlansDialog({ product, onClose }: PlansDialogProps) {
  const [editing, setEditing] = useState<AdminPlan | null>(null);
  const [values, setValues] = useState<PlanFormValues>(EMPTY_PLAN_FORM);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const [confirming, setConfirming] = useState<AdminPlan | null>(null);
  const create = useCreatePlan();
  const update = useUpdatePlan();
  const remove = useDeletePlan();
  const busy = create.isPending || update.isPending;
  const plans = [...product.plans].sort((a, b) => a.sort_order - b.sort_order);

  const set = (key: keyof PlanFormValues, value: string) => setValues((current) => ({ ...current, [key]: value }));

  const startEdit = (plan: AdminPlan) => {
    setEditing(plan);
    setValues(planFormValuesOf(plan));
    setErrors({});
  };

  const resetForm = () => {
    setEditing(null);
    setValues(EMPTY_PLAN_FORM);
    setErrors({});
  };

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const built = buildPlanBody(values);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    const handlers = {
      onSuccess: () => {
        resetForm();
        setMessage({ tone: 'success', text: PLAN_SAVED });
      },
      onError: (error: Error) => {
        if (isApiError(error)) setErrors(error.fields);
        setMessage({ tone: 'error', text: errorMessage(error, PLAN_SAVE_FAILED) });
      },
    };
    if (editing) update.mutate({ id: editing.id, body: built.body }, handlers);
    else create.mutate({ productId: product.id, body: built.body }, handlers);
  };

  const confirmDelete = () => {
    const plan = confirming;
    if (!plan) return;
    remove.mutate(plan.id, {
      onSuccess: () => {
        setConfirming(null);
        if (editing?.id === plan.id) resetForm();
        setMessage({ tone: 'success', text: PLAN_DELETED });
      },
      onError: (error) => {
        setConfirming(null);
        console.error('Failed to delete pricing plan', error);
        // A plan in use cannot go: say why (the server's words).
        if (isApiError(error) && error.status === 409) setMessage({ tone: 'error', text: error.message });
      },
    });
  };

  return (
    <Dialog open onClose={onClose} title={`Pricing Plans - ${product.name}`} size="lg">
      <DialogCloseButton onClick={onClose} />
      <div className="mt-4 space-y-4">
        <Banner message={message} onDismiss={() => setMessage(null)} />
        {plans.length === 0 ? (
          <p className="text-sm text-slate-500">No pricing plans yet.</p>
        ) : (
          <ul aria-label="Pricing plans" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {plans.map((plan) => (
              <li key={plan.id} aria-label={plan.name} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
                <div>
                  <p className="font-medium text-slate-900">{plan.name}</p>
                  <p className="text-slate-600">
                    {formatMoney(plan.price_amount, plan.currency)} {plan.currency} {billingFrequencyText(plan.billing_frequency_value, plan.billing_frequency_unit)}
                    {plan.trial_days ? `, ${String(plan.trial_days)}-day free trial` : ''}
                  </p>
                </div>
                <div className="flex gap-2">
                  <button type="button" className="btn-secondary" onClick={() => startEdit(plan)}>
                    Edit
                  </button>
                  <button type="button" className="btn-secondary text-red-700" onClick={() => setConfirming(plan)}>
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        {confirming ? (
          <div role="alertdialog" aria-label="Delete pricing plan" aria-describedby="plan-delete-question" className="rounded-lg border border-red-200 bg-red-50 p-4">
            <p id="plan-delete-question" className="text-sm text-red-900">
              {PLAN_DELETE_QUESTION}
            </p>
            <div className="mt-3 flex gap-2">
              <button type="button" className="btn-primary bg-red-600 hover:bg-red-700" onClick={confirmDelete} disabled={remove.isPending}>
                Delete Plan
              </button>
              <button type="button" className="btn-secondary" onClick={() => setConfirming(null)} disabled={remove.isPending}>
                Cancel
              </button>
            </div>
          </div>
        ) : null}
        <form noValidate onSubmit={submit} aria-labelledby="plan-form-title" className="space-y-4 rounded-lg border border-slate-200 p-4">
          <h3 id="plan-form-title" className="text-lg font-semibold text-slate-900">
            {editing ? 'Edit Plan' : 'Add New Plan'}
          </h3>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Plan Name" name="name" required requiredMark value={values.name} error={errors.name} onChange={(event) => set('name', event.target.value)} />
            <FormField
              label="Price"
              name="price"
              type="number"
              min={0}
              step={0.01}
              inputMode="decimal"
              required
              requiredMark
              hint="In dollars, e.g. 19.99"
              value={values.price}
              error={errors.price}
              onChange={(event) => set('price', event.target.value)}
            />
            <SelectField
              label="Currency"
              value={values.currency}
              error={errors.currency}
              options={CURRENCIES.map((code) => ({ value: code, label: code }))}
              onChange={(event) => set('currency', event.target.value)}
            />
            <FormField
              label="Sort Order"
              name="sort_order"
              type="number"
              step={1}
              value={values.sort_order}
              error={errors.sort_order}
              onChange={(event) => set('sort_order', event.target.value)}
            />
            <SelectField
              label="Billing Every"
              value={values.billing_frequency_value}
              error={errors.billing_frequency_value}
              options={FREQUENCY_VALUES.map((n) => ({ value: String(n), label: String(n) }))}
              onChange={(event) => set('billing_frequency_value', event.target.value)}
            />
            <SelectField
              label="Billing Unit"
              value={values.billing_frequency_unit}
              error={errors.billing_frequency_unit}
              options={FREQUENCY_UNITS.map((unit) => ({ value: unit, label: unit === 'month' ? 'Month(s)' : 'Year(s)' }))}
              onChange={(event) => set('billing_frequency_unit', event.target.value)}
            />
            <FormField
              label="Trial days"
              name="trial_days"
              type="number"
              min={0}
              max={MAX_TRIAL_DAYS}
              step={1}
              hint={`Free days before the first charge, 0 to ${String(MAX_TRIAL_DAYS)} (0: no trial)`}
              value={values.trial_days}
              error={errors.trial_days}
              onChange={(event) => set('trial_days', event.target.value)}
            />
          </div>
          <div className="flex justify-end gap-3">
            {editing ? (
              <button type="button" className="btn-secondary" onClick={resetForm} disabled={busy}>
                Cancel Edit
              </button>
            ) : null}
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? 'Saving...' : editing ? 'Update Plan' : 'Add Plan'}
            </button>
          </div>
        </form>
      </div>
    </Dialog>
  );
}
