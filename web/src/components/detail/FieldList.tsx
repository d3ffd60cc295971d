// A record's facts as a description list: each [term, value] a <dt> and its <dd>, in a grid.
import type { ReactNode } from 'react';

export type Field = readonly [term: string, value: ReactNode];

export function FieldList({ fields, className = 'mt-3' }: { fields: readonly Field[]; className?: string }) {
  return (
    <dl className={`grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4 ${className}`}>
      {fields.map(([term, value]) => (
        <div key={term}>
          <dt className="text-slate-500">{term}</dt>
          <dd className="mt-1 break-words font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
