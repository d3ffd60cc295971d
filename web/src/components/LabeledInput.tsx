import { useId, type InputHTMLAttributes, type Ref } from 'react';

interface LabeledInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** A form field: its label above a styled input, tied together by a generated id. */
export function LabeledInput({ label, inputRef, className, ...input }: LabeledInputProps) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input ref={inputRef} id={id} {...input} className={className ? `field-input mt-1 ${className}` : 'field-input mt-1'} />
    </div>
  );
}
