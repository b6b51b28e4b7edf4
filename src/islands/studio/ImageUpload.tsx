// Uploading an image with its alt text (docs/product.md, "The studio": images): a file and a
// description, both required, checked here first so a wrong file never travels. Used by the
// featured image field and by "Insert image" in the body.
import { type SubmitEvent, useId, useState } from 'react';
import {
  IMAGE_ALT_MAX,
  IMAGE_MAX_BYTES,
  IMAGE_TYPES,
  type UploadedImage,
} from '../../../api/contract/studio.ts';
import { errorMessage } from '../../lib/api.ts';
import { uploadImage } from '../../stores/studio.ts';
import { buttons } from '../dialogs/DialogShell.tsx';
import { field, hint, label } from './parts.tsx';

interface Props {
  submitLabel: string;
  onUploaded: (image: UploadedImage) => void;
  onCancel?: () => void;
}

const MB = 1024 * 1024;

/** What is wrong with the chosen file and alt text, or null. */
export function uploadProblem(file: File | null, alt: string): string | null {
  if (!file) return 'Choose an image file.';
  if (!IMAGE_TYPES.some((type) => type === file.type))
    return 'That file is not a JPEG, PNG, WebP or AVIF image.';
  if (file.size > IMAGE_MAX_BYTES) return `The image is larger than ${IMAGE_MAX_BYTES / MB} MB.`;
  if (!alt.trim()) return 'Describe the image for people who cannot see it (alt text).';
  return null;
}

export function ImageUpload({ submitLabel, onUploaded, onCancel }: Props) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (working) return;
    const problem = uploadProblem(file, alt);
    if (problem || !file) {
      setError(problem);
      document.getElementById(file ? `${id}-alt` : `${id}-file`)?.focus();
      return;
    }
    setWorking(true);
    setError(null);
    try {
      onUploaded(await uploadImage(file, alt.trim()));
      setFile(null);
      setAlt('');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setWorking(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-busy={working || undefined}>
      <div>
        <label htmlFor={`${id}-file`} className={label}>
          Image file
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          aria-describedby={`${id}-file-hint`}
          className="text-ink mt-1 block w-full text-sm"
        />
        <p id={`${id}-file-hint`} className={hint}>
          JPEG, PNG, WebP or AVIF, up to {IMAGE_MAX_BYTES / MB} MB. Location and camera details are removed.
        </p>
      </div>
      <div>
        <label htmlFor={`${id}-alt`} className={label}>
          Alt text (required)
        </label>
        <input
          id={`${id}-alt`}
          type="text"
          value={alt}
          maxLength={IMAGE_ALT_MAX}
          required
          onChange={(event) => setAlt(event.target.value)}
          aria-describedby={`${id}-alt-hint`}
          className={field}
        />
        <p id={`${id}-alt-hint`} className={hint}>
          What the image shows, for people who cannot see it.
        </p>
      </div>
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        {onCancel && (
          <button type="button" onClick={onCancel} className={buttons.secondary}>
            Cancel
          </button>
        )}
        <button type="submit" aria-disabled={working || undefined} className={buttons.primary}>
          {working ? 'Uploading…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
