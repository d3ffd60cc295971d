// Cache keys of the WireWrite staff screens.
export const companionKeys = {
  all: ['companion'] as const,
  stats: () => [...companionKeys.all, 'stats'] as const,
  promoCodes: (page: number) => [...companionKeys.all, 'promo-codes', page] as const,
  workers: (params: Record<string, string | number>) => [...companionKeys.all, 'workers', params] as const,
  certificates: (params: Record<string, string | number>) => [...companionKeys.all, 'certificates', params] as const,
};

/** The page size of every staff list (the server's default). */
export const PAGE_SIZE = 50;

/** A list URL with the parameters that are set. */
export function listPath(base: string, params: Record<string, string | number>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== '') query.set(key, String(value));
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}
