// The search index is kept in shards of posts by id (docs/decisions/022): scripts/lib/build.ts
// writes one Pagefind index per shard and their list; the search box loads the list and merges them.

/** The folder of the search index in a release, and the shards' list in it. */
export const SEARCH_DIR = 'pagefind';
export const SEARCH_SHARDS_FILE = `${SEARCH_DIR}/shards.json`;

/** The address of a shard's Pagefind bundle. */
export const shardPath = (shard: number) => `/${SEARCH_DIR}/${shard}/`;

/** The shards' list as the build wrote it: shard numbers, ascending; anything else is refused. */
export function parseShards(json: unknown): number[] {
  const list: unknown[] = Array.isArray(json) ? json : [];
  const shards = list.filter((n): n is number => Number.isInteger(n) && Number(n) >= 0);
  if (!Array.isArray(json) || shards.length !== list.length) {
    throw new Error(`${SEARCH_SHARDS_FILE} is not a list of shard numbers`);
  }
  return shards;
}
