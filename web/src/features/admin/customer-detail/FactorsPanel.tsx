// The customer's two-factor factors (names and dates only) and, on an open account with any, the
// way to reset them.
import { Panel, PanelEmpty } from '@/components/detail';
import type { CustomerDetail } from '../api/customerSchemas';
import { PLAIN_CELL as CELL, PlainTable } from '@/components/detail/PlainTable';
import { when } from './when';

export function FactorsPanel({ data, onReset }: { data: CustomerDetail; onReset: () => void }) {
  return (
    <Panel id="customer-factors" title="Two-factor authentication">
      {data.factors.length === 0 ? (
        <PanelEmpty>No authenticator set up.</PanelEmpty>
      ) : (
        <PlainTable caption="Two-factor factors" headers={['Name', 'Type', 'Status', 'Added', 'Last changed']}>
          {data.factors.map((f) => (
            <tr key={f.id}>
              <td className={CELL}>{f.friendly_name ?? 'Authenticator'}</td>
              <td className={`${CELL} uppercase`}>{f.factor_type}</td>
              <td className={CELL}>{f.status === 'verified' ? 'Verified' : 'Not verified'}</td>
              <td className={CELL}>{when(f.created_at)}</td>
              <td className={CELL}>{when(f.updated_at)}</td>
            </tr>
          ))}
        </PlainTable>
      )}
      {!data.customer.closed && data.factors.length > 0 ? (
        <div className="mt-3">
          <button type="button" className="btn-secondary" onClick={onReset}>
            Reset two-factor
          </button>
        </div>
      ) : null}
    </Panel>
  );
}
