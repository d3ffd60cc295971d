import { useState, type ImgHTMLAttributes } from 'react';

type HideOnErrorImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'onError' | 'src' | 'alt'> & {
  src: string;
  alt: string;
};

/** An image that removes itself when it fails to load (spec: images that fail to load are hidden). */
export function HideOnErrorImage({ src, alt, ...rest }: HideOnErrorImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (failedSrc === src) return null;
  return <img src={src} alt={alt} onError={() => setFailedSrc(src)} {...rest} />;
}
