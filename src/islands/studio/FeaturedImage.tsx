// The post's featured image: a thumbnail with its alt text and Remove, or an upload.
import { useState } from 'react';
import { uploadedImageSources } from '../../../api/contract/studio.ts';
import { buttons } from '../dialogs/DialogShell.tsx';
import { ImageUpload } from './ImageUpload.tsx';

interface Props {
  url: string | null;
  alt: string | null;
  onChange: (url: string | null, alt: string | null) => void;
}

export function FeaturedImage({ url, alt, onChange }: Props) {
  const [replacing, setReplacing] = useState(false);
  const sources = uploadedImageSources(url);
  return (
    <fieldset className="border-sand rounded-xl border p-4">
      <legend className="text-ink px-1 text-sm font-semibold">Featured image</legend>
      {url && !replacing ? (
        <div className="flex flex-wrap items-start gap-4">
          <img
            src={sources?.src ?? url}
            alt={alt ?? ''}
            width={sources?.width ?? 160}
            height={sources?.height ?? 90}
            className="h-24 w-40 rounded-lg object-cover"
          />
          <div className="min-w-0 flex-1 space-y-2 text-sm">
            <p className="text-ink break-words">
              <span className="font-semibold">Alt text:</span> {alt || 'none'}
            </p>
            <div className="flex flex-wrap gap-2">
              <button type="button" className={buttons.secondary} onClick={() => setReplacing(true)}>
                Replace image
              </button>
              <button type="button" className={buttons.secondary} onClick={() => onChange(null, null)}>
                Remove image
              </button>
            </div>
          </div>
        </div>
      ) : (
        <ImageUpload
          submitLabel="Upload featured image"
          onUploaded={(image) => {
            setReplacing(false);
            onChange(image.url, image.alt);
          }}
          onCancel={replacing ? () => setReplacing(false) : undefined}
        />
      )}
    </fieldset>
  );
}
