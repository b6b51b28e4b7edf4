import { useState } from 'react';
import { initials } from '../../lib/initials.ts';

/**
 * A photo only from a same-origin path or an https URL (docs/product.md); anything else
 * (http:, data:, javascript:, protocol-relative '//host') falls back to initials.
 */
export function isSafeAvatarUrl(url: string | null | undefined): url is string {
  if (!url) return false;
  if (url.startsWith('/')) return !url.startsWith('//') && !url.startsWith('/\\');
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

const SIZES = { sm: 'h-8 w-8 text-xs', md: 'h-10 w-10 text-sm', lg: 'h-14 w-14 text-lg' } as const;

interface Props {
  name: string;
  photoUrl?: string | null;
  size?: keyof typeof SIZES;
}

/** A round avatar: the photo, or the name's initials (decorative: the name is shown beside it). */
export function Avatar({ name, photoUrl, size = 'md' }: Props) {
  const [failed, setFailed] = useState(false);
  const base = `inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full ${SIZES[size]}`;
  if (isSafeAvatarUrl(photoUrl) && !failed) {
    return (
      <img
        src={photoUrl}
        alt=""
        className={`${base} object-cover`}
        referrerPolicy="no-referrer"
        loading="lazy"
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <span aria-hidden="true" className={`${base} bg-brand-light text-brand-dark font-semibold`}>
      {initials(name)}
    </span>
  );
}
