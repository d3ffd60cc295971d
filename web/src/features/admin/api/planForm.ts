// The pricing-plan form's rules (spec sections 5 and 9) beside the plan calls: name and price
// required; the price in major units, 0 or more, step 0.01, sent as the text typed (the server
// parses it exactly: "19.99" → 1999); currency NZD, AUD or USD; every 1, 3, 6 or 12 months or years;
// trial days a whole number from 0 (no trial) to 90, sent as `trial_days`.
import { z } from '@/lib/schema';
import { MAJOR_UNITS_PATTERN, minorToMajor } from '../money';
import { CURRENCIES, FREQUENCY_UNITS, FREQUENCY_VALUES, type AdminPlan } from './schemas';
import { fieldErrorsOf, type FieldErrors } from './productForm';

export interface PlanFormValues {
  name: string;
  /** Major units as typed, e.g. "19.99". */
  price: string;
  currency: string;
  billing_frequency_value: string;
  billing_frequency_unit: string;
  sort_order: string;
  trial_days: string;
}

/** The longest free trial a plan may give (the server's limit too). */
export const MAX_TRIAL_DAYS = 90;
const TRIAL_DAYS_MESSAGE = `Trial days must be a whole number from 0 to ${String(MAX_TRIAL_DAYS)}.`;

export const planFormSchema = z.object({
  name: z.string().trim().min(1, 'Plan name is required.'),
  price: z
    .string()
    .trim()
    .min(1, 'Price is required.')
    .regex(MAJOR_UNITS_PATTERN, 'Enter a price of 0 or more with at most 2 decimal places.'),
  currency: z.enum(CURRENCIES, { message: 'Choose NZD, AUD or USD.' }),
  billing_frequency_value: z.coerce
    .number()
    .refine((value) => (FREQUENCY_VALUES as readonly number[]).includes(value), 'Choose 1, 3, 6 or 12.'),
  billing_frequency_unit: z.enum(FREQUENCY_UNITS, { message: 'Choose month or year.' }),
  sort_order: z
    .string()
    .trim()
    .regex(/^-?\d*$/, 'Sort order must be a whole number.')
    .transform((text) => (text === '' ? 0 : Number(text))),
  trial_days: z
    .string()
    .trim()
    .regex(/^\d*$/, TRIAL_DAYS_MESSAGE)
    .transform((text) => (text === '' ? 0 : Number(text)))
    .refine((days) => days <= MAX_TRIAL_DAYS, TRIAL_DAYS_MESSAGE),
});

export type PlanBody = z.output<typeof planFormSchema>;

export function buildPlanBody(values: PlanFormValues): { ok: true; body: PlanBody } | { ok: false; errors: FieldErrors } {
  const parsed = planFormSchema.safeParse(values);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: fieldErrorsOf(parsed.error) };
}

export const EMPTY_PLAN_FORM: PlanFormValues = {
  name: '',
  price: '',
  currency: 'NZD',
  billing_frequency_value: '1',
  billing_frequency_unit: 'month',
  sort_order: '0',
  trial_days: '0',
};

export function planFormValuesOf(plan: AdminPlan): PlanFormValues {
  return {
    name: plan.name,
    price: minorToMajor(plan.price_amount),
    currency: plan.currency,
    billing_frequency_value: String(plan.billing_frequency_value),
    billing_frequency_unit: plan.billing_frequency_unit,
    sort_order: String(plan.sort_order),
    trial_days: String(plan.trial_days ?? 0),
  };
}
