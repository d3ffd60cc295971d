// One required field of the sign-in / create-account forms (AuthDialog).
import type { ChangeEvent, Ref } from 'react';
import { FormField } from '@/components/FormField';

interface AuthFieldProps {
  label: string;
  name: string;
  type: 'text' | 'email' | 'password';
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  autoComplete: string;
  minLength?: number;
  inputRef?: Ref<HTMLInputElement>;
}

export function AuthField({ label, name, type, value, onChange, autoComplete, minLength, inputRef }: AuthFieldProps) {
  return (
    <FormField
      label={label}
      inputRef={inputRef}
      name={name}
      type={type}
      required
      minLength={minLength}
      autoComplete={autoComplete}
      value={value}
      onChange={onChange}
    />
  );
}
