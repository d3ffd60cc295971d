// GET /api/v1/admin/images: the picker's folders and images.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { adminKeys } from './keys';
import { imageSchema } from './schemas';

export const imagesSchema = z.object({ folders: z.array(z.string()), images: z.array(imageSchema) });
export type ImageLibrary = z.infer<typeof imagesSchema>;

export function fetchImages(signal?: AbortSignal): Promise<ImageLibrary> {
  return apiFetch('/api/v1/admin/images', { schema: imagesSchema, signal });
}

export function useImages(enabled: boolean) {
  return useQuery({ queryKey: adminKeys.images(), queryFn: ({ signal }) => fetchImages(signal), enabled });
}
