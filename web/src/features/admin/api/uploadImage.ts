// POST /api/v1/admin/images: the file's bytes as the body with its own Content-Type. The browser
// checks type and size first to save a round trip; the server checks the content itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { adminKeys } from './keys';
import { imageSchema } from './schemas';

export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

export const UPLOAD_TYPE_MESSAGE = 'Only PNG, JPEG or WebP images can be uploaded.';
export const UPLOAD_SIZE_MESSAGE = 'The image is larger than 5 MB.';

/** Why the file cannot be uploaded, or null. */
export function uploadProblem(file: Blob): string | null {
  if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) return UPLOAD_TYPE_MESSAGE;
  if (file.size > UPLOAD_MAX_BYTES) return UPLOAD_SIZE_MESSAGE;
  return null;
}

const uploadAnswerSchema = z.object({ image: imageSchema });

export async function uploadImage(file: Blob) {
  const answer = await apiFetch('/api/v1/admin/images', { method: 'POST', rawBody: file, schema: uploadAnswerSchema });
  return answer.image;
}

export function useUploadImage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadImage, onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.images() }) });
}
