import { useMemo } from 'react';
import { sanitizeHtml } from '@/lib/sanitize';

interface RichTextProps {
  html: string;
  className?: string;
}

/** Renders stored rich text after the allowlist sanitiser (lib/sanitize.ts) has rebuilt it. */
export function RichText({ html, className = '' }: RichTextProps) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return <div className={`rich-text ${className}`} dangerouslySetInnerHTML={{ __html: clean }} />;
}
