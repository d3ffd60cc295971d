// Cache keys of the signed-in person's data (reset with every other query on sign-out).
export const accountKeys = {
  all: ['account'] as const,
  dashboard: () => [...accountKeys.all, 'dashboard'] as const,
  orders: () => [...accountKeys.all, 'orders'] as const,
  invoices: (page: number) => [...accountKeys.all, 'invoices', page] as const,
  invoice: (number: string, staff: boolean) => [...accountKeys.all, 'invoice', number, staff] as const,
  checkout: (id: string) => [...accountKeys.all, 'checkout', id] as const,
  subscriptionValidation: (productSlug: string) => [...accountKeys.all, 'subscription-validation', productSlug] as const,
};
