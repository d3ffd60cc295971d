// Previous / Next with "Page X of Y" under a server-paged list (tables and card lists alike).
// A searched list may count only its first 10,000 matches (`total_capped`): the pager then says
// "Page X of 200+" and "10,000+ matches", and Next stays open while pages come back full.
import { formatCount } from '@/lib/format';
import { pageCount, PAGE_SIZE } from '@/lib/list';

interface PagerProps {
  /** The list's name: the navigation landmark is "<label> pages". */
  label: string;
  page: number;
  total: number;
  /** Rows on this page (for a capped total: a full page means there may be more). */
  rows: number;
  totalCapped?: boolean;
  pageSize?: number;
  busy?: boolean;
  onPageChange: (page: number) => void;
}

export function Pager({ label, page, total, rows, totalCapped = false, pageSize = PAGE_SIZE, busy = false, onPageChange }: PagerProps) {
  if (total <= pageSize && page <= 1) return null;
  const pages = pageCount(total, pageSize);
  const morePages = page < pages || (totalCapped && rows === pageSize);
  return (
    <nav aria-label={`${label} pages`} className="mt-3 flex items-center justify-between text-sm text-slate-600">
      <button type="button" className="btn-secondary" disabled={page <= 1 || busy} onClick={() => onPageChange(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {totalCapped ? formatCount(pages, { orMore: true }) : pages}
        {totalCapped ? ` · ${formatCount(total, { orMore: true })} matches` : null}
      </span>
      <button type="button" className="btn-secondary" disabled={!morePages || busy} onClick={() => onPageChange(page + 1)}>
        Next
      </button>
    </nav>
  );
}
