// A figure with its label (the dashboard's cards): a <dt>/<dd> pair, so a row of cards sits in a <dl>.
import type { ReactNode } from 'react';

interface StatCardProps {
  label: string;
  value: ReactNode;
  /** A line under the value ('All time: $9,876.54'). */
  note?: string;
  /** More lines (the other currencies). */
  extra?: string[];
}

export function StatCard({ label, value, note, extra = [] }: StatCardProps) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-2 text-3xl font-bold text-slate-900">{value}</dd>
      {note ? <dd className="mt-1 text-sm text-slate-500">{note}</dd> : null}
      {extra.map((line) => (
        <dd key={line} className="mt-1 text-sm text-slate-600">
          {line}
        </dd>
      ))}
    </div>
  );
}
