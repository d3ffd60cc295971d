// POST /api/v1/admin/products (the form's body from productForm.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { invalidateCatalogue } from './invalidate';
import type { ProductBody } from './productForm';
import { adminProductSchema } from './schemas';

const productAnswerSchema = z.object({ product: adminProductSchema });

export async function createProduct(body: ProductBody) {
  const answer = await apiFetch('/api/v1/admin/products', { method: 'POST', body, schema: productAnswerSchema });
  return answer.product;
}

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createProduct, onSuccess: () => invalidateCatalogue(queryClient) });
}

export { productAnswerSchema };
