// The one loading indicator: a spinner beside its words, announced as a status.
interface LoadingProps {
  /** What is loading, e.g. 'Loading product details...'. */
  text: string;
  className?: string;
}

export function Loading({ text, className = 'flex items-center justify-center py-24' }: LoadingProps) {
  return (
    <div className={className} role="status">
      <span className="mr-3 h-5 w-5 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" aria-hidden="true" />
      <p className="text-slate-600">{text}</p>
    </div>
  );
}
