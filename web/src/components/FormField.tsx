// The one form field: its label, the control, an optional hint, and an error slot that shows a
// message for the field (the client's own check, or the server's 422 `fields[name]`), wired to the
// control with aria-invalid and aria-describedby so screen readers announce it.
import { useId, type InputHTMLAttributes, type Ref, type TextareaHTMLAttributes } from 'react';

interface FieldFrame {
  label: string;
  /** A line under the control that stays (format, limits). */
  hint?: string;
  /** The problem with the value, or nothing. */
  error?: string | undefined;
  /** Marks the label with a red asterisk (the control's `required` is set either way). */
  requiredMark?: boolean;
  /** Classes of the wrapper (e.g. a grid span). */
  wrapperClassName?: string;
}

type InputFieldProps = FieldFrame &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & { multiline?: false; inputRef?: Ref<HTMLInputElement> };
type TextareaFieldProps = FieldFrame &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & { multiline: true; textareaRef?: Ref<HTMLTextAreaElement> };

export type FormFieldProps = InputFieldProps | TextareaFieldProps;

export function FormField(props: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const { label, hint, error, requiredMark = false, wrapperClassName } = props;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  const aria = { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy } as const;
  const classes = (extra: string | undefined) => (extra ? `field-input mt-1 ${extra}` : 'field-input mt-1');

  let control;
  if (props.multiline) {
    const { label: _l, hint: _h, error: _e, requiredMark: _r, wrapperClassName: _w, multiline: _m, textareaRef, className, ...rest } = props;
    control = <textarea ref={textareaRef} id={id} rows={6} {...rest} {...aria} className={classes(className)} />;
  } else {
    const { label: _l, hint: _h, error: _e, requiredMark: _r, wrapperClassName: _w, multiline: _m, inputRef, className, ...rest } = props;
    control = <input ref={inputRef} id={id} {...rest} {...aria} className={classes(className)} />;
  }

  return (
    <div className={wrapperClassName}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {requiredMark ? (
          <span className="ml-0.5 text-red-600" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      {control}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
