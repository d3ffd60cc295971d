// The plain tables of the detail pages (no paging, no sorting): a caption for screen readers,
// column headers, and the rows the caller gives (their cells use PLAIN_CELL). Wider than its box,
// it scrolls and takes keyboard focus, named by its caption, as the list kit's DataTable does.
import { useRef, type ReactNode } from 'react';
import { useOverflows } from '../useOverflows';

export const PLAIN_CELL = 'py-2 pr-4';

export function PlainTable({ caption, headers, children }: { caption: string; headers: string[]; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const scrolls = useOverflows(box);
  return (
    <div ref={box} className="mt-3 overflow-x-auto" {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': caption } : {})}>
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className={PLAIN_CELL}>
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
