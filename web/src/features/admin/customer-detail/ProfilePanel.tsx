// The customer's account as staff see it (never a password); a closed account shows no name or email.
import type { ReactNode } from 'react';
import { FieldList, Panel, type Field } from '@/components/detail';
import type { CustomerDetail } from '../api/customerSchemas';
import { CustomerBadges } from '../routes/CustomerManagementPage';
import { when } from './when';

export function ProfilePanel({ customer: c }: { customer: CustomerDetail['customer'] }) {
  const email: ReactNode = c.closed ? '—' : c.email ? <a href={`mailto:${c.email}`} className="text-brand-700 hover:underline">{c.email}</a> : '—';
  const fields: Field[] = [
    ['Name', c.closed ? '—' : (c.full_name ?? '—')],
    ['Email', email],
    ['Phone', c.phone ?? '—'],
    ['Joined', when(c.created_at)],
    ['Email confirmed', c.email_confirmed_at ? when(c.email_confirmed_at) : 'Not yet'],
    ['Last sign-in', when(c.last_sign_in_at, 'Never')],
    ['Confirmation sent', when(c.confirmation_sent_at)],
    ['Recovery sent', when(c.recovery_sent_at)],
  ];
  if (c.admin_since) fields.push(['Admin since', when(c.admin_since)]);
  if (c.closed_at) fields.push(['Closed', when(c.closed_at)]);
  return (
    <Panel id="customer-profile" title="Profile">
      <div className="mt-2">
        <CustomerBadges customer={c} />
      </div>
      <FieldList fields={fields} />
    </Panel>
  );
}
