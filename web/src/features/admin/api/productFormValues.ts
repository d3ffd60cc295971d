// The product form's shapes: its modes, its values (what the inputs hold) and the body it sends,
// the fields each mode shows, and the values of a new or a stored product. The rules are productForm.ts's.
import { minorToMajor } from '../money';
import type { AdminProduct } from './schemas';

/** The three forms of the spec: full (add or edit), home page appearance, detail page content. */
export type ProductFormMode = 'full' | 'home' | 'detail';

export const ACTION_TYPES = [
  { value: '', label: 'Default (Checkout)' },
  { value: 'none', label: 'None' },
  { value: 'checkout', label: 'Checkout' },
  { value: 'google_play', label: 'Google Play' },
  { value: 'external_link', label: 'External Link' },
] as const;

export interface ProductFormValues {
  name: string;
  slug: string;
  type: 'subscription' | 'physical';
  description: string;
  description_detail: string;
  meta_keywords: string;
  icon_url: string;
  picture_url: string;
  stock_quantity: string;
  track_inventory: boolean;
  is_active: boolean;
  features: string[];
  action_type: string;
  action_url: string;
  show_pricing: boolean;
  /** Major units as typed ("49.00"); empty means no price. */
  price_nzd: string;
  billing_interval: string;
}

export type ProductBody = Partial<{
  name: string;
  slug: string;
  type: string;
  description: string;
  description_detail: string | null;
  meta_keywords: string | null;
  icon_url: string;
  picture_url: string | null;
  stock_quantity: number | null;
  track_inventory: boolean;
  is_active: boolean;
  features: string[];
  action_type: string | null;
  action_url: string | null;
  show_pricing: boolean;
  price_nzd: number | null;
  billing_interval: string | null;
}>;

/** The fields each form mode shows and sends. */
export const MODE_FIELDS: Record<ProductFormMode, (keyof ProductFormValues)[]> = {
  full: [
    'name',
    'slug',
    'type',
    'description',
    'description_detail',
    'meta_keywords',
    'icon_url',
    'picture_url',
    'stock_quantity',
    'track_inventory',
    'is_active',
    'features',
    'action_type',
    'action_url',
    'show_pricing',
    'price_nzd',
    'billing_interval',
  ],
  home: ['icon_url', 'description', 'features'],
  detail: ['description_detail', 'picture_url', 'meta_keywords', 'action_type', 'action_url', 'show_pricing'],
};

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  name: '',
  slug: '',
  type: 'subscription',
  description: '',
  description_detail: '',
  meta_keywords: '',
  icon_url: '',
  picture_url: '',
  stock_quantity: '',
  track_inventory: false,
  is_active: true,
  features: [],
  action_type: '',
  action_url: '',
  show_pricing: true,
  price_nzd: '',
  billing_interval: '',
};

/** The form's values for a stored product. */
export function formValuesOf(product: AdminProduct): ProductFormValues {
  return {
    name: product.name,
    slug: product.slug,
    type: product.type === 'physical' ? 'physical' : 'subscription',
    description: product.description ?? '',
    description_detail: product.description_detail ?? '',
    meta_keywords: product.meta_keywords ?? '',
    icon_url: product.icon_url ?? '',
    picture_url: product.picture_url ?? '',
    stock_quantity: product.stock_quantity === null ? '' : String(product.stock_quantity),
    track_inventory: product.track_inventory,
    is_active: product.is_active,
    features: [...product.features],
    action_type: product.action_type ?? '',
    action_url: product.action_url ?? '',
    show_pricing: product.show_pricing,
    price_nzd: product.price_nzd === null ? '' : minorToMajor(product.price_nzd),
    billing_interval: product.billing_interval ?? '',
  };
}
