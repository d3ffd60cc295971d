// A list's search box: it asks as you type, once typing pauses (SEARCH_DEBOUNCE_MS), or at once
// on Enter. The committed term lives in the address (useListState's `q`), so Back and a reload
// bring it back; when the address changes under it (Back), the box shows the address's term.
import { useEffect, useEffectEvent, useState, type SyntheticEvent } from 'react';
import { SEARCH_DEBOUNCE_MS } from '@/lib/list';

interface SearchFieldProps {
  /** The accessible name of the box and of its search landmark. */
  label: string;
  /** The committed term (from the address). */
  value: string;
  onSearch: (term: string) => void;
  placeholder?: string;
  className?: string;
}

export function SearchField({ label, value, onSearch, placeholder, className = 'w-full sm:max-w-sm' }: SearchFieldProps) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  // The address moved (Back, a link): show its term, unless it is what the box already says.
  if (shown !== value) {
    setShown(value);
    if (text.trim() !== value) setText(value);
  }

  // The wait restarts only when the text changes, not when the page re-renders (a new onSearch).
  const commit = useEffectEvent((term: string) => onSearch(term));
  useEffect(() => {
    const term = text.trim();
    if (term === value) return;
    const timer = window.setTimeout(() => commit(term), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, value]);

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const term = text.trim();
    if (term !== value) onSearch(term);
  };

  return (
    <form role="search" aria-label={label} onSubmit={submit} className={className}>
      <input
        type="search"
        aria-label={label}
        className="field-input"
        value={text}
        placeholder={placeholder}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}
