// From and to (New Zealand dates, YYYY-MM-DD) for the books' screens, applied with a button or
// Enter: the dates go to the page's address only then, never while a date is half typed. The
// server's field errors (422 `fields.from` / `fields.to`) show beside the fields. Give it
// `key={from + to}` so it shows the address's dates again when they change (Back, a period).
import { useState, type SyntheticEvent } from 'react';
import { FormField } from '@/components/FormField';

interface DateRangeFormProps {
  /** The form's accessible name. */
  label: string;
  from: string;
  to: string;
  submitLabel: string;
  errors?: { from?: string | undefined; to?: string | undefined };
  onApply: (range: { from: string; to: string }) => void;
}

export function DateRangeForm({ label, from, to, submitLabel, errors = {}, onApply }: DateRangeFormProps) {
  const [start, setStart] = useState(from);
  const [end, setEnd] = useState(to);
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply({ from: start.trim(), to: end.trim() });
  };
  return (
    <form aria-label={label} onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3">
      <FormField label="From" name="from" type="date" value={start} error={errors.from} onChange={(event) => setStart(event.target.value)} />
      <FormField label="To" name="to" type="date" value={end} error={errors.to} onChange={(event) => setEnd(event.target.value)} />
      <button type="submit" className="btn-secondary">
        {submitLabel}
      </button>
    </form>
  );
}
