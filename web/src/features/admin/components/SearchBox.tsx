// A search field that asks the server when submitted (Enter or the Search button).
import { useState, type SyntheticEvent } from 'react';

interface SearchBoxProps {
  label: string;
  value: string;
  onSearch: (value: string) => void;
  placeholder?: string;
}

export function SearchBox({ label, value, onSearch, placeholder }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form role="search" aria-label={label} onSubmit={submit} className="flex gap-2">
      <input
        type="search"
        aria-label={label}
        className="field-input max-w-xs"
        value={text}
        placeholder={placeholder}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="btn-secondary">
        Search
      </button>
    </form>
  );
}
