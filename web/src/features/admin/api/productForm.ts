// The product form's rules (spec section 5) as a zod schema beside the create and update calls:
// name and slug required; slug lower case with whitespace runs turned into hyphens; the redirect
// URL http(s); stock an integer of 0 or more, empty → null; optional text empty → null; features
// trimmed with empties dropped. The server checks every rule again.
import { z } from '@/lib/schema';
import { majorToMinor } from '../money';
import { MODE_FIELDS, type ProductBody, type ProductFormMode, type ProductFormValues } from './productFormValues';

export {
  ACTION_TYPES,
  EMPTY_PRODUCT_FORM,
  formValuesOf,
  MODE_FIELDS,
  type ProductBody,
  type ProductFormMode,
  type ProductFormValues,
} from './productFormValues';

/** Lower case, whitespace runs → '-' (what the field does as you type, and the server again). */
export function normaliseSlug(text: string): string {
  return text.toLowerCase().replace(/\s+/g, '-');
}

/** Trimmed features with the empty ones dropped. */
export function cleanFeatures(features: string[]): string[] {
  return features.map((feature) => feature.trim()).filter((feature) => feature !== '');
}

/** An editor's empty document ('<p><br></p>') counts as no text. */
export function isBlankHtml(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim() === '';
}

/** The redirect URL and Show Pricing Section appear for any non-empty action type except 'none'. */
export function showsActionControls(actionType: string): boolean {
  return actionType !== '' && actionType !== 'none';
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const optionalText = (value: string): string | null => (value.trim() === '' ? null : value.trim());
/**
 * The editor's HTML as it is stored. Quill 2 writes every space as &nbsp;, so stored text would
 * never wrap on the storefront: spaces become spaces again (on submit, not while typing, where the
 * editor must keep its own value).
 */
export function storedHtml(html: string): string {
  return html.replace(/&nbsp;|\u00a0/g, ' ');
}

const optionalHtml = (value: string): string | null => (isBlankHtml(value) ? null : storedHtml(value));

export const productFormSchema = z
  .object({
    name: z.string(),
    slug: z.string(),
    type: z.enum(['subscription', 'physical']),
    description: z.string(),
    description_detail: z.string(),
    meta_keywords: z.string(),
    icon_url: z.string(),
    picture_url: z.string(),
    stock_quantity: z.string(),
    track_inventory: z.boolean(),
    is_active: z.boolean(),
    features: z.array(z.string()),
    action_type: z.string(),
    action_url: z.string(),
    show_pricing: z.boolean(),
    price_nzd: z.string(),
    billing_interval: z.string(),
  })
  .superRefine((values, ctx) => {
    if (values.name.trim() === '') ctx.addIssue({ code: 'custom', path: ['name'], message: 'Name is required.' });
    if (normaliseSlug(values.slug.trim()) === '') ctx.addIssue({ code: 'custom', path: ['slug'], message: 'Slug is required.' });
    const stock = values.stock_quantity.trim();
    if (stock !== '' && !/^\d+$/.test(stock)) {
      ctx.addIssue({ code: 'custom', path: ['stock_quantity'], message: 'Stock must be a whole number of 0 or more.' });
    }
    const url = values.action_url.trim();
    if (showsActionControls(values.action_type) && url !== '' && !isHttpUrl(url)) {
      ctx.addIssue({ code: 'custom', path: ['action_url'], message: 'Enter a full http:// or https:// address.' });
    }
    if (values.price_nzd.trim() !== '' && majorToMinor(values.price_nzd) === null) {
      ctx.addIssue({ code: 'custom', path: ['price_nzd'], message: 'Enter a price of 0 or more with at most 2 decimal places.' });
    }
  });

export type FieldErrors = Partial<Record<string, string>>;

/** The first message per field of a failed check. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form');
    errors[key] ??= issue.message;
  }
  return errors;
}

/** The whole body a form's values make (spec section 5's conversions). */
function fullBody(values: ProductFormValues): Required<ProductBody> {
  const stock = values.stock_quantity.trim();
  return {
    name: values.name.trim(),
    slug: normaliseSlug(values.slug.trim()),
    type: values.type,
    // The landing card always has a description and an icon (the public Product type's strings):
    // empty is '' for these two, null for the other optional texts.
    description: isBlankHtml(values.description) ? '' : storedHtml(values.description),
    description_detail: optionalHtml(values.description_detail),
    meta_keywords: optionalText(values.meta_keywords),
    icon_url: values.icon_url.trim(),
    picture_url: optionalText(values.picture_url),
    // Stock applies to tracked physical products only.
    stock_quantity: values.type === 'physical' && values.track_inventory && stock !== '' ? Number(stock) : null,
    track_inventory: values.type === 'physical' && values.track_inventory,
    is_active: values.is_active,
    features: cleanFeatures(values.features),
    action_type: values.action_type === '' ? null : values.action_type,
    action_url: showsActionControls(values.action_type) ? optionalText(values.action_url) : null,
    show_pricing: showsActionControls(values.action_type) ? values.show_pricing : true,
    price_nzd: values.price_nzd.trim() === '' ? null : majorToMinor(values.price_nzd),
    billing_interval: optionalText(values.billing_interval),
  };
}

/**
 * Checks the values and makes the request body of `mode` (only that mode's fields, so a partial
 * update leaves the rest alone). Field errors when a rule fails.
 */
export function buildProductBody(
  values: ProductFormValues,
  mode: ProductFormMode,
): { ok: true; body: ProductBody } | { ok: false; errors: FieldErrors } {
  const parsed = productFormSchema.safeParse(values);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    const shown = Object.fromEntries(Object.entries(errors).filter(([key]) => (MODE_FIELDS[mode] as string[]).includes(key)));
    if (Object.keys(shown).length > 0) return { ok: false, errors: shown };
  }
  const body = fullBody(values);
  const picked: ProductBody = {};
  for (const key of MODE_FIELDS[mode]) {
    (picked as Record<string, unknown>)[key] = body[key];
  }
  return { ok: true, body: picked };
}
