// 'Select Image from Public Folder': the server's image library by folder (All Products, then
// each folder), a click picks one; staff can upload a PNG, JPEG or WebP of at most 5 MB, which is
// picked at once. Shown inside the product form's dialog (one dialog at a time).
import { useId, useState, type ChangeEvent } from 'react';
import { FormAlert } from '@/components/detail';
import { errorMessage, isApiError } from '@/lib/api';
import { useImages } from '../api/getImages';
import { UPLOAD_SIZE_MESSAGE, uploadProblem, useUploadImage } from '../api/uploadImage';
import { ImagePreview } from './ImagePreview';

export const ALL_FOLDERS = '';

interface ImagePickerProps {
  onPick: (url: string) => void;
  onBack: () => void;
}

export function ImagePicker({ onPick, onBack }: ImagePickerProps) {
  const images = useImages(true);
  const upload = useUploadImage();
  const [folder, setFolder] = useState(ALL_FOLDERS);
  const [problem, setProblem] = useState<string | null>(null);
  const uploadId = useId();

  const folders = [{ value: ALL_FOLDERS, label: 'All Products' }, ...(images.data?.folders ?? []).map((name) => ({ value: name, label: name }))];
  const shown = (images.data?.images ?? []).filter((image) => folder === ALL_FOLDERS || image.folder === folder);

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const reason = uploadProblem(file);
    setProblem(reason);
    if (reason) return;
    upload.mutate(file, {
      onSuccess: (image) => onPick(image.url),
      // 413 is the server's size limit; 422 unsupported_image says what it found.
      onError: (error) => setProblem(isApiError(error) && error.status === 413 ? UPLOAD_SIZE_MESSAGE : errorMessage(error, 'Failed to upload image')),
    });
  };

  return (
    <div className="mt-4 space-y-4">
      <div role="group" aria-label="Folders" className="flex flex-wrap gap-2">
        {folders.map((entry) => (
          <button
            key={entry.value}
            type="button"
            aria-pressed={entry.value === folder}
            className={entry.value === folder ? 'btn-primary' : 'btn-secondary'}
            onClick={() => setFolder(entry.value)}
          >
            {entry.label}
          </button>
        ))}
      </div>
      {images.isPending ? (
        <p role="status" className="text-sm text-slate-500">
          Loading ...
        </p>
      ) : shown.length === 0 ? (
        <p className="text-sm text-slate-500">No images in this folder.</p>
      ) : (
        <ul aria-label="Images" className="grid grid-cols-3 gap-3 sm:grid-cols-4">
          {shown.map((image) => (
            <li key={image.url}>
              <button type="button" className="w-full rounded-lg border border-slate-200 p-2 hover:border-brand-500" onClick={() => onPick(image.url)} aria-label={`Select ${image.name}`}>
                <ImagePreview src={image.url} srcSet={image.srcset} sizes="64px" alt="" className="mx-auto h-16 w-16" />
                <span className="mt-1 block truncate text-xs text-slate-600">{image.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4">
        <div>
          <label htmlFor={uploadId} className="btn-secondary cursor-pointer">
            {upload.isPending ? 'Uploading...' : 'Upload Image'}
          </label>
          <input id={uploadId} type="file" accept="image/png,image/jpeg,image/webp" className="sr-only" onChange={onFile} disabled={upload.isPending} />
          <p className="mt-1 text-xs text-slate-500">PNG, JPEG or WebP, at most 5 MB.</p>
        </div>
        <button type="button" className="btn-ghost" onClick={onBack}>
          Back to Form
        </button>
      </div>
      <FormAlert tone="error">{problem}</FormAlert>
    </div>
  );
}
