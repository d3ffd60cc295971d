// PATCH /api/v1/admin/products/{id}: a partial update (one form mode's fields, or is_active).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { productAnswerSchema } from './createProduct';
import { invalidateCatalogue } from './invalidate';
import type { ProductBody } from './productForm';

export async function updateProduct({ id, body }: { id: string; body: ProductBody }) {
  const answer = await apiFetch(`/api/v1/admin/products/${encodeURIComponent(id)}`, { method: 'PATCH', body, schema: productAnswerSchema });
  return answer.product;
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateProduct, onSuccess: () => invalidateCatalogue(queryClient) });
}
