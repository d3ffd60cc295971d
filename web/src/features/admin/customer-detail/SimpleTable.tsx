// The plain tables of the customer page (no paging, no sorting): a caption for screen readers,
// column headers, and the rows the caller gives.
import type { ReactNode } from 'react';

export function SimpleTable({ caption, headers, children }: { caption: string; headers: string[]; children: ReactNode }) {
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

export const CELL = 'py-2 pr-4';
