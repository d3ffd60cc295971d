import { type Ref } from 'react';
import { FormField } from '@/components/FormField';

/** Authenticator codes are 6 digits (spec sections 5 and 9). */
export const MFA_CODE_LENGTH = 6;

/** Keeps digits only, at most six: what the code fields accept from typing or pasting. */
export function toMfaCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, MFA_CODE_LENGTH);
}

interface CodeInputProps {
  value: string;
  onChange: (code: string) => void;
  label?: string;
  disabled?: boolean;
  invalid?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * The 6-digit code field of the sign-in code step and of two-factor setup. No maxLength
 * attribute: the browser would cut a pasted "123 456" to "123 4" before the digits are kept.
 */
export function CodeInput({ value, onChange, label = 'Verification code', disabled = false, invalid = false, inputRef }: CodeInputProps) {
  return (
    <FormField
      label={label}
      inputRef={inputRef}
      name="code"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      placeholder="000000"
      value={value}
      disabled={disabled}
      aria-invalid={invalid ? true : undefined}
      onChange={(event) => onChange(toMfaCode(event.target.value))}
      className="text-center font-mono text-2xl tracking-[0.5em]"
    />
  );
}

/** The red box of the auth dialogs (spec section 2: "Errors appear in a red box"). */
export function ErrorBox({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {message}
    </div>
  );
}

/** A green confirmation box (sign-up and password-reset notices, set-password success). */
export function NoticeBox({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div role="status" className="rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-800">
      {message}
    </div>
  );
}
