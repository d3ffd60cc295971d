// The API's JSON shapes (docs/architecture.md, "Contract between server and web app").
// Field names are snake_case as the server sends them; money is integer minor units (cents).

export type ProductType = 'subscription' | 'physical';
export type Currency = 'NZD' | 'AUD' | 'USD';
export type BillingFrequencyUnit = 'month' | 'year';

export interface PricingPlan {
  id: string;
  name: string;
  /** Minor units (cents). */
  price_amount: number;
  currency: Currency | (string & {});
  billing_frequency_value: number;
  billing_frequency_unit: BillingFrequencyUnit | (string & {});
  sort_order: number;
  /** Free days before the first charge (0-90); absent from an older server. */
  trial_days?: number;
}

export interface Product {
  id: string;
  slug: string;
  name: string;
  /** Sanitised rich text for the landing page card. */
  description: string;
  /** Sanitised rich text for the detail page; falls back to `description`. */
  description_detail: string | null;
  /** Comma-separated keywords. */
  meta_keywords: string | null;
  type: ProductType;
  icon_url: string;
  picture_url: string | null;
  /** An uploaded picture's stored widths as an HTML srcset ("/uploads/x-w320.jpg 320w, ..."); null otherwise. */
  picture_srcset?: string | null;
  stock_quantity: number | null;
  track_inventory: boolean;
  is_active: boolean;
  features: string[];
  /** null | 'none' | 'checkout' | 'google_play' | 'external_link'; any other value means checkout. */
  action_type: string | null;
  action_url: string | null;
  show_pricing: boolean;
  /** Minor units (cents), GST included. */
  price_nzd: number;
  billing_interval: string | null;
  /** ISO-8601 UTC. */
  created_at: string;
  /** Present only in the detail response. */
  plans?: PricingPlan[];
}
