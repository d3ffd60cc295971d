// The product form's selling fields: the action button (type, redirect URL, pricing shown), the
// stock of a physical product, and the price with its billing interval.
import { FormField } from '@/components/FormField';
import { SelectField } from '@/components/SelectField';
import { ACTION_TYPES, showsActionControls, type FieldErrors, type ProductFormValues } from '../api/productForm';

interface SalesFieldsProps {
  values: ProductFormValues;
  errors: FieldErrors;
  shows: (field: keyof ProductFormValues) => boolean;
  set: <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) => void;
}

export function SalesFields({ values, errors, shows, set }: SalesFieldsProps) {
  return (
    <>
      {shows('action_type') ? (
        <SelectField label="Action Type" value={values.action_type} options={ACTION_TYPES} onChange={(event) => set('action_type', event.target.value)} />
      ) : null}
      {shows('action_url') && showsActionControls(values.action_type) ? (
        <>
          <FormField
            label="Redirect URL"
            name="action_url"
            type="url"
            placeholder="https://"
            value={values.action_url}
            error={errors.action_url}
            onChange={(event) => set('action_url', event.target.value)}
          />
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={values.show_pricing} onChange={(event) => set('show_pricing', event.target.checked)} />
            Show Pricing Section
          </label>
        </>
      ) : null}
      {shows('track_inventory') && values.type === 'physical' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-700">
            <input type="checkbox" checked={values.track_inventory} onChange={(event) => set('track_inventory', event.target.checked)} />
            Track Inventory
          </label>
          {values.track_inventory ? (
            <FormField
              label="Stock Quantity"
              name="stock_quantity"
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              value={values.stock_quantity}
              error={errors.stock_quantity}
              onChange={(event) => set('stock_quantity', event.target.value)}
            />
          ) : null}
        </div>
      ) : null}
      {shows('price_nzd') ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="Price (NZD)"
            name="price_nzd"
            type="number"
            min={0}
            step={0.01}
            inputMode="decimal"
            value={values.price_nzd}
            error={errors.price_nzd}
            onChange={(event) => set('price_nzd', event.target.value)}
          />
          <SelectField
            label="Billing Interval"
            value={values.billing_interval}
            error={errors.billing_interval}
            options={[
              { value: '', label: 'None (one-off price)' },
              { value: 'month', label: 'Per month' },
              { value: 'year', label: 'Per year' },
              ...(['', 'month', 'year'].includes(values.billing_interval) ? [] : [{ value: values.billing_interval, label: values.billing_interval }]),
            ]}
            onChange={(event) => set('billing_interval', event.target.value)}
          />
        </div>
      ) : null}
    </>
  );
}
