// "Export CSV" on a staff list: downloads `<list path>/export.csv` with the list's current filters,
// search and sort (the address's, not a page of it). The file comes through the API client with
// the session's token (a plain link cannot send it) and is saved under the server's dated name.
import { useState } from 'react';
import { apiDownload, errorMessage } from '@/lib/api';
import { queryString, type ListQuery } from '@/lib/list';

interface ExportButtonProps {
  /** The export's path, e.g. /api/v1/admin/orders/export.csv. */
  path: string;
  /** The list's request parameters (useListState's `params`); paging is left out. */
  params: ListQuery;
  /** The file name when the server gives none. */
  fallbackName?: string;
}

/** The export's address: the list's parameters without page and page_size. */
export function exportHref(path: string, params: ListQuery): string {
  const { page: _page, page_size: _size, ...rest } = params;
  return path + queryString(rest);
}

function save(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ExportButton({ path, params, fallbackName = 'export.csv' }: ExportButtonProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const file = await apiDownload(exportHref(path, params), fallbackName);
      save(file.blob, file.filename);
    } catch (failure) {
      setError(errorMessage(failure, 'The export failed. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col items-end gap-1">
      <button type="button" className="btn-secondary" onClick={() => void download()} disabled={busy} aria-busy={busy}>
        {busy ? 'Exporting…' : 'Export CSV'}
      </button>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
