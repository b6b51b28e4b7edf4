// Initials for the local avatar (docs/product.md): commenters without a photo get their initials,
// never an external avatar service.

/**
 * Up to two initials from a display name: the first letters of its first and last words
 * ('Jane van Doe' → 'JD', 'Sam' → 'S'). An email counts by the part before the at-sign. Words
 * without a letter or digit ('&', '-') are skipped; a name with none gives '?'.
 */
export function initials(name: string | null | undefined): string {
  const local = (name ?? '').split('@')[0] ?? '';
  const words = local
    .split(/[\s._]+/u)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+/u, ''))
    .filter((word) => word.length > 0);
  const first = words[0];
  if (first === undefined) return '?';
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  // Array.from keeps characters outside the BMP (and surrogate pairs) whole.
  const letter = (word: string) => (Array.from(word)[0] ?? '').toLocaleUpperCase();
  return letter(first) + (last ? letter(last) : '');
}
