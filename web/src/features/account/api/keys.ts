// Cache keys of the signed-in person's data (reset with every other query on sign-out).
export const accountKeys = {
  all: ['account'] as const,
  dashboard: () => [...accountKeys.all, 'dashboard'] as const,
  orders: () => [...accountKeys.all, 'orders'] as const,
  invoices: (page: number) => [...accountKeys.all, 'invoices', page] as const,
  invoice: (number: string, staff: boolean) => [...accountKeys.all, 'invoice', number, staff] as const,
  checkout: (id: string) => [...accountKeys.all, 'checkout', id] as const,
  subscriptionValidations: () => [...accountKeys.all, 'subscription-validation'] as const,
  subscriptionValidation: (productSlug: string) => [...accountKeys.subscriptionValidations(), productSlug] as const,
  planChangePreview: (subscriptionId: string, planId: string) => [...accountKeys.all, 'plan-change-preview', subscriptionId, planId] as const,
};
