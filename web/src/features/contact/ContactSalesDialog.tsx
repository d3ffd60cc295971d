// The Contact Sales dialog (spec sections 2, 4, 5, 8): idle, submitting ('Sending...'), success
// (thank-you, closes itself after 2 s) or an error shown in the form, which keeps what was typed.
import { useEffect, useRef, useState, type ChangeEvent, type SyntheticEvent, type RefObject } from 'react';
import { Dialog, DialogCloseButton } from '@/components/Dialog';
import { FormField } from '@/components/FormField';
import { isApiError } from '@/lib/api';
import { CONTACT_LIMITS, SALES_EMAIL, contactInputSchema, useSubmitContact } from './api';
import { FormAlert } from '@/components/detail/FormAlert';

/** How long the thank-you stays before the dialog closes itself. */
export const CONTACT_AUTO_CLOSE_MS = 2000;

export const CONTACT_SUCCESS_TEXT = "Thank you! We'll get back to you within 24 hours.";
export const CONTACT_ERROR_TEXT = `Failed to submit form. Please try again or email us directly at ${SALES_EMAIL}`;

type FieldName = keyof typeof CONTACT_LIMITS;

const EMPTY_FORM: Record<FieldName, string> = { name: '', email: '', company: '', phone: '', message: '' };

interface ContactSalesDialogProps {
  open: boolean;
  onClose: () => void;
}

export function ContactSalesDialog({ open, onClose }: ContactSalesDialogProps) {
  const nameRef = useRef<HTMLInputElement>(null);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Contact Sales"
      description="Tell us about your team and what you need. Our sales team replies within 24 hours."
      initialFocusRef={nameRef}
      size="lg"
    >
      <DialogCloseButton onClick={onClose} />
      {/* Mounted only while open, so every opening starts with a fresh form. */}
      {open ? <ContactSalesForm nameRef={nameRef} onClose={onClose} /> : null}
    </Dialog>
  );
}

interface ContactSalesFormProps {
  nameRef: RefObject<HTMLInputElement | null>;
  onClose: () => void;
}

function ContactSalesForm({ nameRef, onClose }: ContactSalesFormProps) {
  const [values, setValues] = useState(EMPTY_FORM);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});
  const mutation = useSubmitContact();
  const { isSuccess } = mutation;

  useEffect(() => {
    if (!isSuccess) return;
    const timer = window.setTimeout(onClose, CONTACT_AUTO_CLOSE_MS);
    return () => window.clearTimeout(timer);
  }, [isSuccess, onClose]);

  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const field = event.target.name as FieldName;
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setFieldErrors((current) => {
      if (!current[field]) return current;
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });
  };

  const onSubmit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const parsed = contactInputSchema.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as FieldName;
        next[field] ??= issue.message;
      }
      setFieldErrors(next);
      return;
    }
    setFieldErrors({});
    mutation.mutate(parsed.data, {
      onError: (error) => {
        console.error('Contact form submission failed', error);
        if (isApiError(error) && error.status === 422) {
          const next: Partial<Record<FieldName, string>> = {};
          for (const [field, message] of Object.entries(error.fields)) {
            if (field in CONTACT_LIMITS) next[field as FieldName] = message;
          }
          setFieldErrors(next);
        }
      },
    });
  };

  if (isSuccess) {
    return (
      <div role="status" className="mt-6 rounded-xl border border-green-200 bg-green-50 p-6 text-center">
        <svg viewBox="0 0 24 24" className="mx-auto h-10 w-10 text-green-600" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <circle cx="12" cy="12" r="10" />
          <path d="M7.5 12.5l3 3 6-6.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <p className="mt-3 text-lg font-semibold text-green-800">{CONTACT_SUCCESS_TEXT}</p>
      </div>
    );
  }

  const pending = mutation.isPending;
  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" aria-busy={pending}>
      {mutation.isError ? (
        <FormAlert tone="error">
          Failed to submit form. Please try again or email us directly at{' '}
          <a href={`mailto:${SALES_EMAIL}`} className="font-medium underline">
            {SALES_EMAIL}
          </a>
        </FormAlert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField name="name" label="Name" required requiredMark maxLength={CONTACT_LIMITS.name} value={values.name} error={fieldErrors.name} onChange={onChange} autoComplete="name" inputRef={nameRef} />
        <FormField name="email" label="Email" required requiredMark type="email" maxLength={CONTACT_LIMITS.email} value={values.email} error={fieldErrors.email} onChange={onChange} autoComplete="email" />
        <FormField name="company" label="Company" type="text" maxLength={CONTACT_LIMITS.company} value={values.company} error={fieldErrors.company} onChange={onChange} autoComplete="organization" />
        <FormField name="phone" label="Phone" type="tel" maxLength={CONTACT_LIMITS.phone} value={values.phone} error={fieldErrors.phone} onChange={onChange} autoComplete="tel" />
        <FormField name="message" label="Message" required requiredMark multiline wrapperClassName="sm:col-span-2" maxLength={CONTACT_LIMITS.message} value={values.message} error={fieldErrors.message} onChange={onChange} autoComplete="off" />
      </div>
      <p className="text-xs text-slate-500">
        <span aria-hidden="true">*</span> Required fields
      </p>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className="btn-secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? 'Sending...' : 'Send Message'}
        </button>
      </div>
    </form>
  );
}
