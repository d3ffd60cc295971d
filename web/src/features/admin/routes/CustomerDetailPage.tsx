// /admin/customers/:id: one customer: their account (never a password), what they bought
// (orders, subscriptions, tax invoices), enterprise accounts, WireWrite profile, two-factor
// factors (names and dates only) and recent sign-in events, with the staff's actions: resend the
// confirmation, send a password recovery email, reset two-factor (with a reason), grant or revoke
// the admin role. A closed account is shown as "Closed account", without actions.
import { useCallback, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Banner, type BannerMessage } from '@/components/Banner';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Badge } from '@/components/list/Badge';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { errorMessage, isApiError } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { useCustomerAction, type CustomerAction } from '../api/customerActions';
import { customerName, type CustomerDetail } from '../api/customerSchemas';
import { useCustomer } from '../api/getCustomer';
import { ResetTwoFactorDialog } from '../components/ResetTwoFactorDialog';
import { orderTone, statusLabel, subscriptionTone } from '../status';
import { CustomerBadges } from './CustomerManagementPage';

const BACK = { to: '/admin/customers', label: 'Back to Customers' };

export const SIGN_IN_EVENTS: Record<string, string> = {
  login: 'Signed in',
  login_failed: 'Wrong password',
  logout: 'Signed out',
  user_confirmed: 'Confirmed their email',
  recovery_link_used: 'Used a password recovery link',
  invite_accepted: 'Accepted an invitation',
  mfa_verification_failed: 'Wrong two-factor code',
  token_reuse_detected: 'Refresh token reused (session ended)',
  session_expired: 'Session expired',
};

type Confirmable = Exclude<CustomerAction, { kind: 'reset-factors' }>['kind'];

const CONFIRMATIONS: Record<Confirmable, { title: string; message: (name: string) => string; label: string; done: (name: string) => string }> = {
  'resend-confirmation': {
    title: 'Resend confirmation email',
    message: (name) => `Send ${name} a new link to confirm their email address? Older links stop working.`,
    label: 'Resend',
    done: (name) => `A new confirmation email is on its way to ${name}.`,
  },
  'send-recovery': {
    title: 'Send password recovery email',
    message: (name) => `Send ${name} a link to choose a new password? Their password stays as it is until they use it.`,
    label: 'Send',
    done: (name) => `A password recovery email is on its way to ${name}.`,
  },
  'grant-admin': {
    title: 'Make admin',
    message: (name) => `Give ${name} the admin role? Admins can use every staff screen once they have set up two-factor authentication.`,
    label: 'Make admin',
    done: (name) => `${name} is now an admin.`,
  },
  'revoke-admin': {
    title: 'Remove admin role',
    message: (name) => `Remove the admin role from ${name}? They keep their customer account.`,
    label: 'Remove admin role',
    done: (name) => `${name} is no longer an admin.`,
  },
};

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="mt-2 text-sm text-slate-500">{children}</p>;
}

function when(value: string | null, never = '—') {
  return value ? formatDate(value, { withTime: true }) : never;
}

function Profile({ data }: { data: CustomerDetail }) {
  const c = data.customer;
  const rows: [string, ReactNode][] = [
    ['Name', c.closed ? '—' : (c.full_name ?? '—')],
    ['Email', c.closed ? '—' : (c.email ?? '—')],
    ['Phone', c.phone ?? '—'],
    ['Joined', when(c.created_at)],
    ['Email confirmed', c.email_confirmed_at ? when(c.email_confirmed_at) : 'Not yet'],
    ['Last sign-in', when(c.last_sign_in_at, 'Never')],
    ['Confirmation sent', when(c.confirmation_sent_at)],
    ['Recovery sent', when(c.recovery_sent_at)],
  ];
  if (c.admin_since) rows.push(['Admin since', when(c.admin_since)]);
  if (c.closed_at) rows.push(['Closed', when(c.closed_at)]);
  return (
    <Panel id="customer-profile" title="Profile">
      <div className="mt-2">
        <CustomerBadges customer={c} />
      </div>
      <dl className="mt-3 grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-slate-500">{label}</dt>
            <dd className="mt-1 break-words font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}

function Table({ caption, headers, children }: { caption: string; headers: string[]; children: ReactNode }) {
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className="py-2 pr-4">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

export function CustomerDetailPage() {
  const { id = '' } = useParams();
  const customer = useCustomer(id);
  useLogLoadFailure('the customer', customer.error);
  const action = useCustomerAction(id);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const [confirming, setConfirming] = useState<Confirmable | null>(null);
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
  const run = (change: CustomerAction, done: string) =>
    action.mutateAsync(change).then(() => setMessage({ tone: 'success', text: done }));
  const confirm = () => {
    if (!confirming) return;
    const step = CONFIRMATIONS[confirming];
    run({ kind: confirming }, step.done(name))
      .catch((error: unknown) => setMessage({ tone: 'error', text: errorMessage(error, 'The change could not be made') }))
      .finally(() => setConfirming(null));
  };

  return (
    <StaffPage title="Customer" back={BACK} subtitle={name}>
      <Banner message={message} onDismiss={dismiss} />
      <Profile data={data} />

      {c.closed ? (
        <p role="note" className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-slate-700">
          This account is closed. Its orders and invoices are kept; nothing else can be changed.
        </p>
      ) : (
        <Panel id="customer-actions" title="Actions">
          <div className="mt-3 flex flex-wrap gap-3">
            {c.email && !c.email_confirmed_at ? (
              <button type="button" className="btn-secondary" onClick={() => setConfirming('resend-confirmation')}>
                Resend confirmation email
              </button>
            ) : null}
            {c.email ? (
              <button type="button" className="btn-secondary" onClick={() => setConfirming('send-recovery')}>
                Send password recovery email
              </button>
            ) : null}
            {c.is_admin ? (
              <button type="button" className="btn-secondary" onClick={() => setConfirming('revoke-admin')}>
                Remove admin role
              </button>
            ) : (
              <button type="button" className="btn-secondary" onClick={() => setConfirming('grant-admin')}>
                Make admin
              </button>
            )}
          </div>
          <p className="mt-3 text-xs text-slate-500">Staff never see or set a customer&apos;s password: a recovery email lets them choose a new one.</p>
        </Panel>
      )}

      <Panel id="customer-factors" title="Two-factor authentication">
        {data.factors.length === 0 ? (
          <Empty>No authenticator set up.</Empty>
        ) : (
          <Table caption="Two-factor factors" headers={['Name', 'Type', 'Status', 'Added', 'Last changed']}>
            {data.factors.map((f) => (
              <tr key={f.id}>
                <td className="py-2 pr-4">{f.friendly_name ?? 'Authenticator'}</td>
                <td className="py-2 pr-4 uppercase">{f.factor_type}</td>
                <td className="py-2 pr-4">{f.status === 'verified' ? 'Verified' : 'Not verified'}</td>
                <td className="py-2 pr-4">{when(f.created_at)}</td>
                <td className="py-2 pr-4">{when(f.updated_at)}</td>
              </tr>
            ))}
          </Table>
        )}
        {!c.closed && data.factors.length > 0 ? (
          <div className="mt-3">
            <button type="button" className="btn-secondary" onClick={() => setResetting(true)}>
              Reset two-factor
            </button>
          </div>
        ) : null}
      </Panel>

      <Panel id="customer-orders" title="Orders">
        {data.orders.length === 0 ? (
          <Empty>No orders.</Empty>
        ) : (
          <Table caption="Orders" headers={['Order', 'Date', 'Status', 'Total']}>
            {data.orders.map((o) => (
              <tr key={o.id}>
                <td className="py-2 pr-4">
                  <Link to={`/admin/orders/${encodeURIComponent(o.id)}`} className="font-medium text-brand-700 hover:underline">
                    {o.order_number}
                  </Link>
                </td>
                <td className="py-2 pr-4">{formatDate(o.created_at)}</td>
                <td className="py-2 pr-4">
                  <Badge tone={orderTone(o.status)}>{statusLabel(o.status)}</Badge>
                </td>
                <td className="py-2 pr-4">{formatMoney(o.total_amount, o.currency)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Panel>

      <Panel id="customer-subscriptions" title="Subscriptions">
        {data.subscriptions.length === 0 ? (
          <Empty>No subscriptions.</Empty>
        ) : (
          <Table caption="Subscriptions" headers={['Product', 'Status', 'Period end', 'Started']}>
            {data.subscriptions.map((s) => (
              <tr key={s.id}>
                <td className="py-2 pr-4">
                  {s.product_name}
                  {s.plan_name ? <span className="block text-xs text-slate-500">{s.plan_name}</span> : null}
                </td>
                <td className="py-2 pr-4">
                  <Badge tone={subscriptionTone(s.status)}>{statusLabel(s.status)}</Badge>
                  {s.cancel_at_period_end ? <span className="block text-xs text-slate-500">Cancels at period end</span> : null}
                </td>
                <td className="py-2 pr-4">{s.current_period_end ? formatDate(s.current_period_end) : '—'}</td>
                <td className="py-2 pr-4">{formatDate(s.created_at)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Panel>

      <Panel id="customer-invoices" title="Tax invoices">
        {data.invoices.length === 0 ? (
          <Empty>No tax invoices.</Empty>
        ) : (
          <Table caption="Tax invoices" headers={['Number', 'Kind', 'Issued', 'Total']}>
            {data.invoices.map((i) => (
              <tr key={i.id}>
                <td className="py-2 pr-4 font-mono">{i.number}</td>
                <td className="py-2 pr-4">{i.kind === 'credit_note' ? 'Credit note' : 'Invoice'}</td>
                <td className="py-2 pr-4">{formatDate(i.issued_at)}</td>
                <td className="py-2 pr-4">{formatMoney(i.total_amount, i.currency)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Panel>

      <Panel id="customer-enterprise" title="Enterprise accounts">
        {data.enterprise.length === 0 ? (
          <Empty>Not on any enterprise account.</Empty>
        ) : (
          <ul className="mt-3 space-y-1 text-sm">
            {data.enterprise.map((e) => (
              <li key={`${e.account_id}-${e.role}`}>
                <span className="font-medium text-slate-900">{e.company_name}</span> · {e.role === 'owner' ? 'Account admin' : statusLabel(e.role)}
                {e.is_active ? null : <span className="text-slate-500"> (inactive)</span>}
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <Panel id="customer-wirewrite" title="WireWrite">
        {data.wirewrite ? (
          <dl className="mt-3 grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <div>
              <dt className="text-slate-500">Name</dt>
              <dd className="mt-1 font-medium text-slate-900">{data.wirewrite.full_name ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Licence number</dt>
              <dd className="mt-1 font-medium text-slate-900">{data.wirewrite.ewrb_licence_number ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Tier</dt>
              <dd className="mt-1 font-medium text-slate-900">{data.wirewrite.entitlement === 'pro' ? 'Pro' : 'Free'}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Last active</dt>
              <dd className="mt-1 font-medium text-slate-900">{when(data.wirewrite.last_active_at, 'Never')}</dd>
            </div>
          </dl>
        ) : (
          <Empty>No WireWrite profile.</Empty>
        )}
      </Panel>

      <Panel id="customer-sign-ins" title="Recent sign-in events">
        {data.sign_ins.length === 0 ? (
          <Empty>No sign-in events.</Empty>
        ) : (
          <Table caption="Recent sign-in events" headers={['When', 'Event', 'From']}>
            {data.sign_ins.map((e) => (
              <tr key={e.id}>
                <td className="py-2 pr-4">{when(e.created_at)}</td>
                <td className="py-2 pr-4">{SIGN_IN_EVENTS[e.action] ?? e.action}</td>
                <td className="py-2 pr-4 font-mono text-xs">{e.client_address ?? '—'}</td>
              </tr>
            ))}
          </Table>
        )}
      </Panel>

      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? CONFIRMATIONS[confirming].title : ''}
        message={confirming ? CONFIRMATIONS[confirming].message(name) : ''}
        confirmLabel={confirming ? CONFIRMATIONS[confirming].label : 'Confirm'}
        danger={confirming === 'revoke-admin'}
        busy={action.isPending}
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      />
      {resetting ? (
        <ResetTwoFactorDialog
          name={name}
          busy={action.isPending}
          onClose={() => setResetting(false)}
          onReset={(reason) =>
            run({ kind: 'reset-factors', reason }, `Two-factor authentication of ${name} is reset.`).then(() => setResetting(false))
          }
        />
      ) : null}
    </StaffPage>
  );
}

