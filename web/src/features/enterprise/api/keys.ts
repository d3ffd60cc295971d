// Cache keys of the enterprise feature (reset with every other query on sign-out).
import type { ListQuery } from '@/lib/list';

export const enterpriseKeys = {
  all: ['enterprise'] as const,
  team: () => [...enterpriseKeys.all, 'team'] as const,
  admin: () => [...enterpriseKeys.all, 'admin'] as const,
  adminList: (params: ListQuery) => [...enterpriseKeys.admin(), 'list', params] as const,
  adminDetail: (id: string) => [...enterpriseKeys.admin(), 'detail', id] as const,
  products: () => [...enterpriseKeys.all, 'products'] as const,
};
