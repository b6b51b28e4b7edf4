/**
 * When each Node release line stops getting security fixes (nodejs.org/about/previous-releases).
 * Lines not listed are newer than the table and still supported.
 */
const END_OF_LIFE: Readonly<Record<number, string>> = {
  18: '2025-04-30',
  20: '2026-04-30',
  22: '2027-04-30',
  24: '2028-04-30',
};

/**
 * The start-up warning for a Node release line past its end of life, or null while it still gets
 * security fixes. `version` is `process.version` (`v20.20.0`).
 */
export function nodeSupportWarning(version: string, today: Date): string | null {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  const end = END_OF_LIFE[major];
  if (end === undefined || today < new Date(`${end}T00:00:00Z`)) return null;
  return `Node ${major} stopped getting security fixes on ${end}: run production on Node 24 (see docs/deploy.md).`;
}
