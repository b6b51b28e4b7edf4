/**
 * Text neither database can keep as it was sent: PostgreSQL refuses NUL (U+0000) in text, and a
 * lone UTF-16 surrogate has no UTF-8 form, so both drivers would store something else (U+FFFD).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** Where in value (`content`, `tags.0`) the first string or key that cannot be stored is, or null. */
export function unstorableText(value: unknown, path: readonly (string | number)[] = []): string | null {
  if (typeof value === 'string') return unstorable(value) ? path.join('.') || 'value' : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorableText(item, [...path, index]);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (unstorable(key)) return [...path, 'key'].join('.') || 'key';
      const found = unstorableText(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

export const UNSTORABLE_MESSAGE = 'must not contain NUL characters or unpaired surrogates';
