// The product form in the spec's three modes: full ('Add New Product' / 'Edit Product'), home
// ('Edit Home Page Appearance') and detail ('Edit Detail Page Content'). Each mode shows and sends
// its own fields; the rules are productForm.ts's; the server's field errors (422, a taken slug's
// 409) appear under their fields. The image picker opens inside the same dialog.
import { useState, type SyntheticEvent, type KeyboardEvent } from 'react';
import { Dialog, DialogCloseButton } from '@/components/Dialog';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { useCreateProduct } from '../api/createProduct';
import {
  ACTION_TYPES,
  buildProductBody,
  EMPTY_PRODUCT_FORM,
  formValuesOf,
  MODE_FIELDS,
  normaliseSlug,
  showsActionControls,
  type FieldErrors,
  type ProductFormMode,
  type ProductFormValues,
} from '../api/productForm';
import type { AdminProduct } from '../api/schemas';
import { useUpdateProduct } from '../api/updateProduct';
import { ImagePicker } from './ImagePicker';
import { ImagePreview } from './ImagePreview';
import { RichTextField } from './RichTextField';
import { SelectField } from '@/components/SelectField';

export const PRODUCT_CREATED = 'Product created successfully!';
export const PRODUCT_UPDATED = 'Product updated successfully!';
export const PRODUCT_SAVE_FAILED = 'Failed to save product.';

export function formTitle(mode: ProductFormMode, product: AdminProduct | null): string {
  if (mode === 'home') return 'Edit Home Page Appearance';
  if (mode === 'detail') return 'Edit Detail Page Content';
  return product ? 'Edit Product' : 'Add New Product';
}

type ImageFieldName = 'icon_url' | 'picture_url';

interface ProductFormDialogProps {
  mode: ProductFormMode;
  /** null: a new product (full mode only). */
  product: AdminProduct | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

export function ProductFormDialog({ mode, product, onClose, onSaved }: ProductFormDialogProps) {
  const [values, setValues] = useState<ProductFormValues>(() => (product ? formValuesOf(product) : EMPTY_PRODUCT_FORM));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [feature, setFeature] = useState('');
  const [picking, setPicking] = useState<ImageFieldName | null>(null);
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const busy = create.isPending || update.isPending;
  const shows = (field: keyof ProductFormValues) => MODE_FIELDS[mode].includes(field);

  const set = <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
  };

  const addFeature = () => {
    const text = feature.trim();
    if (text === '') return;
    set('features', [...values.features, text]);
    setFeature('');
  };

  const onFeatureKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    addFeature();
  };

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const built = buildProductBody(values, mode);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    const handlers = {
      onSuccess: () => onSaved(product ? PRODUCT_UPDATED : PRODUCT_CREATED),
      onError: (error: Error) => {
        if (isApiError(error)) setErrors(error.fields);
        setFailure(errorMessage(error, PRODUCT_SAVE_FAILED));
      },
    };
    if (product) update.mutate({ id: product.id, body: built.body }, handlers);
    else create.mutate(built.body, handlers);
  };

  const imageField = (name: ImageFieldName, label: string) => (
    <div className="flex items-end gap-3">
      <ImagePreview src={values[name]} alt={`${label} preview`} />
      <FormField
        wrapperClassName="flex-1"
        label={label}
        name={name}
        value={values[name]}
        error={errors[name]}
        onChange={(event) => set(name, event.target.value)}
        placeholder="/products/..."
      />
      <button type="button" className="btn-secondary" aria-label={`Select Image for ${label}`} onClick={() => setPicking(name)}>
        Select Image
      </button>
    </div>
  );

  const title = picking ? 'Select Image from Public Folder' : formTitle(mode, product);
  return (
    <Dialog open onClose={picking ? () => setPicking(null) : onClose} title={title} description={mode !== 'full' && product ? product.name : undefined} size="lg">
      <DialogCloseButton onClick={onClose} />
      {picking ? (
        <ImagePicker
          onBack={() => setPicking(null)}
          onPick={(url) => {
            set(picking, url);
            setPicking(null);
          }}
        />
      ) : (
        <form noValidate onSubmit={submit} className="mt-4 space-y-4">
          {shows('name') ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label="Name" name="name" required requiredMark value={values.name} error={errors.name} onChange={(event) => set('name', event.target.value)} />
              <FormField
                label="Slug"
                name="slug"
                required
                requiredMark
                hint="Lower case; spaces become hyphens."
                value={values.slug}
                error={errors.slug}
                onChange={(event) => set('slug', normaliseSlug(event.target.value))}
              />
            </div>
          ) : null}
          {shows('type') ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label="Type"
                value={values.type}
                options={[
                  { value: 'subscription', label: 'Subscription' },
                  { value: 'physical', label: 'Physical' },
                ]}
                onChange={(event) => set('type', event.target.value === 'physical' ? 'physical' : 'subscription')}
              />
              <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-700">
                <input type="checkbox" checked={values.is_active} onChange={(event) => set('is_active', event.target.checked)} />
                Active
              </label>
            </div>
          ) : null}
          {shows('description') ? (
            <RichTextField label="Home Page Description" value={values.description} error={errors.description} onChange={(html) => set('description', html)} />
          ) : null}
          {shows('description_detail') ? (
            <RichTextField
              label="Detail Page Description"
              value={values.description_detail}
              error={errors.description_detail}
              onChange={(html) => set('description_detail', html)}
            />
          ) : null}
          {shows('meta_keywords') ? (
            <FormField
              label="Meta Keywords"
              name="meta_keywords"
              hint="Comma-separated."
              value={values.meta_keywords}
              error={errors.meta_keywords}
              onChange={(event) => set('meta_keywords', event.target.value)}
            />
          ) : null}
          {shows('icon_url') ? imageField('icon_url', 'Icon URL') : null}
          {shows('picture_url') ? imageField('picture_url', 'Picture URL') : null}
          {shows('features') ? (
            <fieldset>
              <legend className="text-sm font-medium text-slate-700">Features</legend>
              {values.features.length > 0 ? (
                <ul aria-label="Features" className="mt-2 space-y-1">
                  {values.features.map((text, index) => (
                    <li key={`${String(index)}-${text}`} className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-1 text-sm">
                      <span>{text}</span>
                      <button
                        type="button"
                        className="text-red-700 hover:underline"
                        aria-label={`Remove feature ${text}`}
                        onClick={() => set('features', values.features.filter((_, i) => i !== index))}
                      >
                        Remove
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
              <div className="mt-2 flex items-end gap-2">
                <FormField
                  wrapperClassName="flex-1"
                  label="New Feature"
                  hint="Press Enter to add it."
                  value={feature}
                  onChange={(event) => setFeature(event.target.value)}
                  onKeyDown={onFeatureKey}
                />
                <button type="button" className="btn-secondary" onClick={addFeature}>
                  Add Feature
                </button>
              </div>
            </fieldset>
          ) : null}
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
          {failure ? (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              {failure}
            </p>
          ) : null}
          <div className="flex justify-end gap-3 border-t border-slate-200 pt-4">
            <button type="button" className="btn-secondary" onClick={onClose} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? 'Saving...' : product ? 'Save Changes' : 'Create Product'}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
