// The result of a staff or account form, in the form: a success is a status (announced politely), an error an
// alert (announced at once). Nothing to say renders nothing.
import type { ReactNode } from 'react';

interface FormAlertProps {
  tone: 'success' | 'error';
  children?: ReactNode;
  className?: string;
}

export function FormAlert({ tone, children, className = '' }: FormAlertProps) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return tone === 'success' ? (
    <p role="status" className={`rounded-md bg-green-50 p-3 text-sm text-green-800 ${className}`}>
      {children}
    </p>
  ) : (
    <p role="alert" className={`rounded-md bg-red-50 p-3 text-sm text-red-800 ${className}`}>
      {children}
    </p>
  );
}
