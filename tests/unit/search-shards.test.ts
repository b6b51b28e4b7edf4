// The shards' list of the search index, as the search box reads it from a release.
import { describe, expect, it } from 'vitest';
import { parseShards, shardPath } from '../../src/lib/search-shards.ts';

describe('the search shards list', () => {
  it('gives the shard numbers and their bundles', () => {
    expect(parseShards([0, 3, 4])).toEqual([0, 3, 4]);
    expect(parseShards([])).toEqual([]);
    expect(shardPath(3)).toBe('/pagefind/3/');
  });

  it.each([[{ shards: [0] }], [['0']], [[-1]], [[1.5]], [null]])('refuses %j', (json) => {
    expect(() => parseShards(json)).toThrow('pagefind/shards.json is not a list of shard numbers');
  });
});
