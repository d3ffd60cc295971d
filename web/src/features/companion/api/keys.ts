// Cache keys of the WireWrite staff screens.
import type { ListQuery } from '@/lib/list';

export const companionKeys = {
  all: ['companion'] as const,
  stats: () => [...companionKeys.all, 'stats'] as const,
  promoCodes: (params: ListQuery) => [...companionKeys.all, 'promo-codes', params] as const,
  workers: (params: ListQuery) => [...companionKeys.all, 'workers', params] as const,
  certificates: (params: ListQuery) => [...companionKeys.all, 'certificates', params] as const,
};

