// A list's one filter: a row of buttons (All, Active, Pending ...); the pressed one is the filter,
// '' meaning all.
interface FilterControlProps<V extends string> {
  label: string;
  options: readonly { value: V; label: string }[];
  value: string;
  onChange: (value: V) => void;
}

export function FilterControl<V extends string>({ label, options, value, onChange }: FilterControlProps<V>) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-2">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          className={option.value === value ? 'btn-primary' : 'btn-secondary'}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
