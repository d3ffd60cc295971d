// GET /api/v1/admin/todo: what waits for staff, in one call: the side navigation's counts and the
// dashboard's to-do list. It reloads on every staff route change and window focus, and after the
// writes that change it (ship, handle an enquiry, retry a mail) through invalidateTodo.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { adminKeys } from './keys';

export const todoSchema = z.object({
  orders_to_ship: z.number().int(),
  enquiries_open: z.number().int(),
  mail_failed: z.number().int(),
  payments_to_return: z.number().int(),
});
export type StaffTodo = z.infer<typeof todoSchema>;

export function fetchTodo(signal?: AbortSignal): Promise<StaffTodo> {
  return apiFetch('/api/v1/admin/todo', { schema: todoSchema, signal });
}

export function useStaffTodo() {
  return useQuery({ queryKey: adminKeys.todo(), queryFn: ({ signal }) => fetchTodo(signal), staleTime: 0, refetchOnWindowFocus: true });
}

/**
 * After a write that changes a count. Not awaited by the writes: their own callbacks must run as
 * soon as their lists have reloaded (a row that leaves the list takes its button with it).
 */
export function invalidateTodo(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: adminKeys.todo() });
}

/** Where each count leads: the list filtered to what the count counts. */
export const TODO_LINKS = {
  orders_to_ship: '/admin/orders?to_ship=true',
  enquiries_open: '/admin/enquiries?handled=false',
  mail_failed: '/admin/mail?status=failed',
  payments_to_return: '/admin/orders?payment_to_return=true',
} as const satisfies Record<keyof StaffTodo, string>;

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-NZ')} ${n === 1 ? one : many}`;
}

/** The dashboard's sentence for each count: "3 orders to ship", "1 failed mail". */
export function todoText(key: keyof StaffTodo, n: number): string {
  switch (key) {
    case 'orders_to_ship':
      return plural(n, 'order to ship', 'orders to ship');
    case 'enquiries_open':
      return plural(n, 'enquiry not handled', 'enquiries not handled');
    case 'mail_failed':
      return plural(n, 'failed mail', 'failed mails');
    case 'payments_to_return':
      return plural(n, 'payment to return', 'payments to return');
  }
}

/** The words after a navigation count, for screen readers ("Orders 3 to ship"). */
export function todoBadgeWords(key: keyof StaffTodo): string {
  switch (key) {
    case 'orders_to_ship':
      return 'to ship';
    case 'enquiries_open':
      return 'not handled';
    case 'mail_failed':
      return 'failed';
    case 'payments_to_return':
      return 'payments to return';
  }
}
