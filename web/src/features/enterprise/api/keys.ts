// Cache keys of the enterprise feature (reset with every other query on sign-out).
export const enterpriseKeys = {
  all: ['enterprise'] as const,
  team: () => [...enterpriseKeys.all, 'team'] as const,
  admin: () => [...enterpriseKeys.all, 'admin'] as const,
  adminList: (page: number, q: string) => [...enterpriseKeys.admin(), 'list', page, q] as const,
  adminDetail: (id: string) => [...enterpriseKeys.admin(), 'detail', id] as const,
  products: () => [...enterpriseKeys.all, 'products'] as const,
};
