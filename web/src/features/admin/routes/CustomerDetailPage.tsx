// /admin/customers/:id: one customer: their account (never a password), what they bought
// (orders, subscriptions, tax invoices), enterprise accounts, WireWrite profile, two-factor
// factors (names and dates only) and recent sign-in events, with the staff's actions: resend the
// confirmation, send a password recovery email, reset two-factor (with a reason), grant or revoke
// the admin role. A closed account is shown as "Closed account", without actions. Each section is
// its own file in ../customer-detail.
import { useCallback, useState } from 'react';
import { useParams } from 'react-router';
import { Banner, type BannerMessage } from '@/components/Banner';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { isApiError } from '@/lib/api';
import { useCustomerAction, type CustomerAction } from '../api/customerActions';
import { customerName } from '../api/customerSchemas';
import { useCustomer } from '../api/getCustomer';
import { ResetTwoFactorDialog } from '../components/ResetTwoFactorDialog';
import { EnterprisePanel, SignInsPanel, WireWritePanel } from '../customer-detail/AboutPanels';
import { CustomerActions } from '../customer-detail/CustomerActions';
import { FactorsPanel } from '../customer-detail/FactorsPanel';
import { ProfilePanel } from '../customer-detail/ProfilePanel';
import { InvoicesPanel, OrdersPanel, SubscriptionsPanel } from '../customer-detail/PurchasePanels';

const BACK = { to: '/admin/customers', label: 'Back to Customers' };

export function CustomerDetailPage() {
  const { id = '' } = useParams();
  const customer = useCustomer(id);
  useLogLoadFailure('the customer', customer.error);
  const action = useCustomerAction(id);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const [resetting, setResetting] = useState(false);
  const dismiss = useCallback(() => setMessage(null), []);
  const data = customer.data;

  if (!data) {
    const missing = isApiError(customer.error) && customer.error.status === 404;
    return (
      <StaffPage title="Customer" back={BACK} error={customer.error}>
        {customer.isPending ? (
          <p role="status" className="py-12 text-center text-slate-500">
            Loading ...
          </p>
        ) : (
          <p className="text-slate-600">{missing ? 'Customer not found.' : 'The customer could not be loaded.'}</p>
        )}
      </StaffPage>
    );
  }

  const c = data.customer;
  const name = customerName(c);
  const run = (change: CustomerAction, done: string) => action.mutateAsync(change).then(() => setMessage({ tone: 'success', text: done }));

  return (
    <StaffPage title="Customer" back={BACK} subtitle={name}>
      <Banner message={message} onDismiss={dismiss} />
      <ProfilePanel customer={c} />
      {c.closed ? (
        <p role="note" className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-slate-700">
          This account is closed. Its orders and invoices are kept; nothing else can be changed.
        </p>
      ) : (
        <CustomerActions customer={c} name={name} busy={action.isPending} run={run} onMessage={setMessage} />
      )}
      <FactorsPanel data={data} onReset={() => setResetting(true)} />
      <OrdersPanel data={data} />
      <SubscriptionsPanel data={data} />
      <InvoicesPanel data={data} />
      <EnterprisePanel data={data} />
      <WireWritePanel data={data} />
      <SignInsPanel data={data} />
      {resetting ? (
        <ResetTwoFactorDialog
          name={name}
          busy={action.isPending}
          onClose={() => setResetting(false)}
          onReset={(reason) => run({ kind: 'reset-factors', reason }, `Two-factor authentication of ${name} is reset.`).then(() => setResetting(false))}
        />
      ) : null}
    </StaffPage>
  );
}
