// The rest of the customer page: their enterprise accounts, WireWrite profile and recent sign-ins.
import { Link } from 'react-router';
import { FieldList, Panel, PanelEmpty } from '@/components/detail';
import type { CustomerDetail } from '../api/customerSchemas';
import { statusLabel } from '../status';
import { PLAIN_CELL as CELL, PlainTable } from '@/components/detail/PlainTable';
import { when } from './when';

export const SIGN_IN_EVENTS: Record<string, string> = {
  login: 'Signed in',
  login_failed: 'Wrong password',
  logout: 'Signed out',
  user_confirmed: 'Confirmed their email',
  recovery_link_used: 'Used a password recovery link',
  invite_accepted: 'Accepted an invitation',
  mfa_verification_failed: 'Wrong two-factor code',
  mfa_wrong_codes_limit: 'Two-factor locked: too many wrong codes',
  magiclink_used: 'Used a sign-in link',
  token_reuse_detected: 'Refresh token reused (session ended)',
  session_expired: 'Session expired',
};

export function EnterprisePanel({ data }: { data: CustomerDetail }) {
  return (
    <Panel id="customer-enterprise" title="Enterprise accounts">
      {data.enterprise.length === 0 ? (
        <PanelEmpty>Not on any enterprise account.</PanelEmpty>
      ) : (
        <ul className="mt-3 space-y-1 text-sm">
          {data.enterprise.map((e) => (
            <li key={`${e.account_id}-${e.role}`}>
              <Link to="/admin/enterprise" className="font-medium text-brand-700 hover:underline">
                {e.company_name}
              </Link>{' '}
              · {e.role === 'owner' ? 'Account admin' : statusLabel(e.role)}
              {e.is_active ? null : <span className="text-slate-500"> (inactive)</span>}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

export function WireWritePanel({ data }: { data: CustomerDetail }) {
  const w = data.wirewrite;
  return (
    <Panel id="customer-wirewrite" title="WireWrite">
      {w ? (
        <FieldList
          fields={[
            ['Name', w.full_name ?? '—'],
            ['Licence number', w.ewrb_licence_number ?? '—'],
            ['Tier', w.entitlement === 'pro' ? 'Pro' : 'Free'],
            ['Last active', when(w.last_active_at, 'Never')],
          ]}
        />
      ) : (
        <PanelEmpty>No WireWrite profile.</PanelEmpty>
      )}
    </Panel>
  );
}

export function SignInsPanel({ data }: { data: CustomerDetail }) {
  return (
    <Panel id="customer-sign-ins" title="Recent sign-in events">
      {data.sign_ins.length === 0 ? (
        <PanelEmpty>No sign-in events.</PanelEmpty>
      ) : (
        <PlainTable caption="Recent sign-in events" headers={['When', 'Event', 'From']}>
          {data.sign_ins.map((e) => (
            <tr key={e.id}>
              <td className={CELL}>{when(e.created_at)}</td>
              <td className={CELL}>{SIGN_IN_EVENTS[e.action] ?? e.action}</td>
              <td className={`${CELL} font-mono text-xs`}>{e.client_address ?? '—'}</td>
            </tr>
          ))}
        </PlainTable>
      )}
    </Panel>
  );
}
