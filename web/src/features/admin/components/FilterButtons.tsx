// A row of filter buttons (All, Active, Pending ...): the pressed one is the list's filter.
interface FilterButtonsProps {
  label: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
}

export function FilterButtons({ label, options, value, onChange }: FilterButtonsProps) {
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
