// The verified authenticators of the account, each with Remove (which opens RemoveFactorDialog).
import { useState } from 'react';
import { formatDate } from '@/lib/format';
import { RemoveFactorDialog } from './RemoveFactorDialog';

interface ActiveFactor {
  id: string;
  friendly_name?: string;
  created_at: string;
}

const nameOf = (factor: ActiveFactor) => (factor.friendly_name?.trim() ? factor.friendly_name : 'Authenticator app');

export function ActiveAuthenticators({ factors }: { factors: ActiveFactor[] }) {
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);

  return (
    <div className="mt-4">
      <h3 className="text-base font-semibold text-slate-900">Active Authenticators</h3>
      <ul className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200">
        {factors.map((factor) => (
          <li key={factor.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
            <div>
              <p className="font-medium text-slate-900">{nameOf(factor)}</p>
              <p className="text-sm text-slate-500">Added {formatDate(factor.created_at)}</p>
            </div>
            <button
              type="button"
              className="btn-secondary text-red-700"
              onClick={() => setRemoving({ id: factor.id, name: nameOf(factor) })}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <RemoveFactorDialog factor={removing} onClose={() => setRemoving(null)} />
    </div>
  );
}
