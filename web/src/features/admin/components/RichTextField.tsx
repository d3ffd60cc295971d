// A labelled rich-text field. The editor is fetched on first use (React.lazy), so the storefront's
// visitors never download it; a plain "Loading editor..." shows meanwhile.
import { lazy, Suspense, useId } from 'react';

const QuillEditor = lazy(() => import('./QuillEditor'));

interface RichTextFieldProps {
  label: string;
  value: string;
  onChange: (html: string) => void;
  error?: string | undefined;
}

export function RichTextField({ label, value, onChange, error }: RichTextFieldProps) {
  const labelId = useId();
  return (
    <div>
      <span id={labelId} className="block text-sm font-medium text-slate-700">
        {label}
      </span>
      <div className="mt-1">
        <Suspense fallback={<p className="text-sm text-slate-500">Loading editor...</p>}>
          <QuillEditor labelledBy={labelId} value={value} onChange={onChange} />
        </Suspense>
      </div>
      {error ? <p className="mt-1 text-sm text-red-700">{error}</p> : null}
    </div>
  );
}
