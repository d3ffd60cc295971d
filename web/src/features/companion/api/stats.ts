// GET /api/v1/admin/wirewrite/stats (docs/wirewrite.md): the dashboard's counts, the companion app's
// URL and the system status from the server's real settings.
import { useQuery } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { companionKeys } from './keys';

export const companionStatsSchema = z.object({
  total_users: z.number().int(),
  free_users: z.number().int(),
  pro_users: z.number().int(),
  conversion_rate: z.number(),
  total_certificates: z.number().int(),
  average_certificates_per_user: z.number(),
  promo_codes_used: z.number().int(),
  inactive_accounts: z.number().int(),
  inactive_days: z.number().int(),
  companion_app_url: z.string(),
  system: z.object({
    email_configured: z.boolean(),
    inactivity_deletion_enabled: z.boolean(),
    inactivity_deletion_days: z.number().int(),
    free_certificate_limit: z.number().int(),
  }),
});

export type CompanionStats = z.infer<typeof companionStatsSchema>;

export function fetchCompanionStats(signal?: AbortSignal): Promise<CompanionStats> {
  return apiFetch('/api/v1/admin/wirewrite/stats', signal ? { schema: companionStatsSchema, signal } : { schema: companionStatsSchema });
}

export function useCompanionStats() {
  return useQuery({ queryKey: companionKeys.stats(), queryFn: ({ signal }) => fetchCompanionStats(signal) });
}
