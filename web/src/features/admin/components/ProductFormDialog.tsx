// The product form in the spec's three modes: full ('Add New Product' / 'Edit Product'), home
// ('Edit Home Page Appearance') and detail ('Edit Detail Page Content'). Each mode shows and sends
// its own fields; the rules are productForm.ts's; the server's field errors (422, a taken slug's
// 409) appear under their fields. The image picker opens inside the same dialog.
import { useState, type SyntheticEvent } from 'react';
import { Dialog, DialogCloseButton } from '@/components/Dialog';
import { FormAlert } from '@/components/detail';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import { useCreateProduct } from '../api/createProduct';
import {
  buildProductBody,
  EMPTY_PRODUCT_FORM,
  formValuesOf,
  MODE_FIELDS,
  normaliseSlug,
  type FieldErrors,
  type ProductFormMode,
  type ProductFormValues,
} from '../api/productForm';
import type { AdminProduct } from '../api/schemas';
import { useUpdateProduct } from '../api/updateProduct';
import { FeaturesField } from './FeaturesField';
import { ImagePicker } from './ImagePicker';
import { ImagePreview } from './ImagePreview';
import { RichTextField } from './RichTextField';
import { SalesFields } from './SalesFields';
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
  const [picking, setPicking] = useState<ImageFieldName | null>(null);
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const busy = create.isPending || update.isPending;
  const shows = (field: keyof ProductFormValues) => MODE_FIELDS[mode].includes(field);

  const set = <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
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
          {shows('features') ? <FeaturesField features={values.features} onChange={(features) => set('features', features)} /> : null}
          <SalesFields values={values} errors={errors} shows={shows} set={set} />
          <FormAlert tone="error">{failure}</FormAlert>
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
