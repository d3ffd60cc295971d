// An image preview with the spec's placeholders: 'No Image' without a URL, 'Image not found'
// when the URL does not load (both in colours with 4.5:1 contrast on the frame: axe's color-contrast).
import { useState } from 'react';

interface ImagePreviewProps {
  src: string;
  alt: string;
  className?: string;
  /** An upload's stored widths (srcset from the server); `sizes` says how wide the preview is laid out. */
  srcSet?: string;
  sizes?: string;
}

export function ImagePreview({ src, alt, className = 'h-16 w-16', srcSet, sizes = '64px' }: ImagePreviewProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const frame = `${className} flex items-center justify-center overflow-hidden rounded-lg border border-slate-200 bg-slate-50`;
  if (!src) {
    return <div className={`${frame} text-center text-xs text-slate-600`}>No Image</div>;
  }
  if (failedSrc === src) {
    return <div className={`${frame} text-center text-xs text-red-700`}>Image not found</div>;
  }
  return (
    <div className={frame}>
      <img
        src={src}
        srcSet={srcSet === '' ? undefined : srcSet}
        sizes={srcSet ? sizes : undefined}
        alt={alt}
        className="max-h-full max-w-full object-contain"
        onError={() => setFailedSrc(src)}
      />
    </div>
  );
}
