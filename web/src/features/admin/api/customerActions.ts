// The staff's actions on a customer (each answers with the customer as it now is):
//   POST   /api/v1/admin/customers/{id}/resend-confirmation
//   POST   /api/v1/admin/customers/{id}/send-recovery
//   DELETE /api/v1/admin/customers/{id}/factors {reason}
//   PUT    /api/v1/admin/customers/{id}/roles/admin
//   DELETE /api/v1/admin/customers/{id}/roles/admin
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { customerDetailSchema, type CustomerDetail } from './customerSchemas';
import { adminKeys } from './keys';

export type CustomerAction =
  | { kind: 'resend-confirmation' }
  | { kind: 'send-recovery' }
  | { kind: 'reset-factors'; reason: string }
  | { kind: 'grant-admin' }
  | { kind: 'revoke-admin' };

function request(action: CustomerAction): { method: 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown } {
  switch (action.kind) {
    case 'resend-confirmation':
      return { method: 'POST', path: '/resend-confirmation' };
    case 'send-recovery':
      return { method: 'POST', path: '/send-recovery' };
    case 'reset-factors':
      return { method: 'DELETE', path: '/factors', body: { reason: action.reason } };
    case 'grant-admin':
      return { method: 'PUT', path: '/roles/admin' };
    case 'revoke-admin':
      return { method: 'DELETE', path: '/roles/admin' };
  }
}

export function runCustomerAction(id: string, action: CustomerAction): Promise<CustomerDetail> {
  const { method, path, body } = request(action);
  return apiFetch(`/api/v1/admin/customers/${encodeURIComponent(id)}${path}`, { method, body, schema: customerDetailSchema });
}

export function useCustomerAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: CustomerAction) => runCustomerAction(id, action),
    onSuccess: (detail) => {
      queryClient.setQueryData(adminKeys.customer(id), detail);
      return queryClient.invalidateQueries({ queryKey: adminKeys.customers() });
    },
  });
}
