// The staff's actions on an open account, each asked first: resend the confirmation, send a
// password recovery email, grant or revoke the admin role. (Reset two-factor is in FactorsPanel.)
import { useState } from 'react';
import type { BannerMessage } from '@/components/Banner';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Panel } from '@/components/detail';
import { errorMessage } from '@/lib/api';
import type { CustomerAction } from '../api/customerActions';
import type { CustomerDetail } from '../api/customerSchemas';

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

interface CustomerActionsProps {
  customer: CustomerDetail['customer'];
  name: string;
  busy: boolean;
  run: (change: CustomerAction, done: string) => Promise<unknown>;
  onMessage: (message: BannerMessage) => void;
}

export function CustomerActions({ customer: c, name, busy, run, onMessage }: CustomerActionsProps) {
  const [confirming, setConfirming] = useState<Confirmable | null>(null);
  const confirm = () => {
    if (!confirming) return;
    run({ kind: confirming }, CONFIRMATIONS[confirming].done(name))
      .catch((error: unknown) => onMessage({ tone: 'error', text: errorMessage(error, 'The change could not be made') }))
      .finally(() => setConfirming(null));
  };
  const button = (kind: Confirmable, label: string) => (
    <button type="button" className="btn-secondary" onClick={() => setConfirming(kind)}>
      {label}
    </button>
  );

  return (
    <Panel id="customer-actions" title="Actions">
      <div className="mt-3 flex flex-wrap gap-3">
        {c.email && !c.email_confirmed_at ? button('resend-confirmation', 'Resend confirmation email') : null}
        {c.email ? button('send-recovery', 'Send password recovery email') : null}
        {c.is_admin ? button('revoke-admin', 'Remove admin role') : button('grant-admin', 'Make admin')}
      </div>
      <p className="mt-3 text-xs text-slate-500">Staff never see or set a customer&apos;s password: a recovery email lets them choose a new one.</p>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? CONFIRMATIONS[confirming].title : ''}
        message={confirming ? CONFIRMATIONS[confirming].message(name) : ''}
        confirmLabel={confirming ? CONFIRMATIONS[confirming].label : 'Confirm'}
        danger={confirming === 'revoke-admin'}
        busy={busy}
        onConfirm={confirm}
        onCancel={() => setConfirming(null)}
      />
    </Panel>
  );
}
