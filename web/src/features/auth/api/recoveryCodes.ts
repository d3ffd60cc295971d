// Recovery codes of the signed-in account (docs/auth.md, "Recovery codes"):
// GET /api/v1/account/recovery-codes (how many are left) and POST (a new set of ten, shown once;
// the old set stops working).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { mfaKeys } from './factors';

/** How many codes a set has. */
export const RECOVERY_CODE_COUNT = 10;

const statusSchema = z.object({ remaining: z.number().int(), created_at: z.string().nullable() });
const newSetSchema = statusSchema.extend({ codes: z.array(z.string()) });

export type RecoveryCodeStatus = z.infer<typeof statusSchema>;

export const recoveryCodeKeys = { status: () => [...mfaKeys.all, 'recovery-codes'] as const };

export const recoveryCodeStatusQuery = () =>
  queryOptions({
    queryKey: recoveryCodeKeys.status(),
    queryFn: ({ signal }) => apiFetch('/api/v1/account/recovery-codes', { schema: statusSchema, signal }),
    staleTime: 0,
  });

export function useRecoveryCodeStatus() {
  return useQuery(recoveryCodeStatusQuery());
}

/** Makes a new set: the answer is the only time the codes are shown. */
export function useGenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/v1/account/recovery-codes', { method: 'POST', body: {}, schema: newSetSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recoveryCodeKeys.status() }),
  });
}

/** A recovery code as typed: ten letters and digits, with or without the hyphen and spaces. */
export function isRecoveryCode(typed: string): boolean {
  return /^[0-9a-z]{10}$/i.test(typed.replace(/[\s-]/g, ''));
}
