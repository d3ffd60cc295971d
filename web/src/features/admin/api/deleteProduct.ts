// DELETE /api/v1/admin/products/{id}: 204, or 409 product_in_use (deactivate it instead).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, isApiError } from '@/lib/api';
import { invalidateCatalogue } from './invalidate';

export const PRODUCT_IN_USE = 'product_in_use';

export function isProductInUse(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && error.code === PRODUCT_IN_USE;
}

export async function deleteProduct(id: string): Promise<void> {
  await apiFetch(`/api/v1/admin/products/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteProduct, onSuccess: () => invalidateCatalogue(queryClient) });
}
