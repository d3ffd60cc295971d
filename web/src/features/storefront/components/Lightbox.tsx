import { Dialog, DialogCloseButton } from '@/components/Dialog';

interface LightboxProps {
  open: boolean;
  onClose: () => void;
  src: string;
  alt: string;
}

/** The full-screen view of a product picture; the close button or Escape closes it. */
export function Lightbox({ open, onClose, src, alt }: LightboxProps) {
  return (
    <Dialog open={open} onClose={onClose} title={alt} hideTitle size="full">
      <DialogCloseButton onClick={onClose} tone="dark" />
      <img src={src} alt={alt} className="max-h-full max-w-full rounded-lg object-contain" />
    </Dialog>
  );
}
