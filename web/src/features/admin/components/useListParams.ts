// A list screen's page and filters kept in the address (?page=2&status=paid&q=...), so the
// browser's Back button and a copied link bring the same view back. A filter change starts at page 1.
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export function useListParams<K extends string>(keys: readonly K[]) {
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const values = {} as Record<K, string>;
  for (const key of keys) values[key] = search.get(key) ?? '';

  const setPage = useCallback(
    (next: number) =>
      setSearch((current) => {
        const copy = new URLSearchParams(current);
        if (next <= 1) copy.delete('page');
        else copy.set('page', String(next));
        return copy;
      }),
    [setSearch],
  );

  const setFilters = useCallback(
    (changes: Partial<Record<K, string>>) =>
      setSearch((current) => {
        const copy = new URLSearchParams(current);
        for (const [key, value] of Object.entries<string | undefined>(changes)) {
          if (value) copy.set(key, value);
          else copy.delete(key);
        }
        copy.delete('page');
        return copy;
      }),
    [setSearch],
  );

  return { page, values, setPage, setFilters };
}
