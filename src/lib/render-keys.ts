// What a build and the publisher tell each other about render keys (docs/decisions/019): the plan
// src/lib/site-plan.ts follows inside the build, and what scripts/lib/build.ts keeps in a release.

/** Each keyed page's address and key; a release folder keeps its build's (api/lib/release-files.ts). */
export interface RenderKeys {
  /** What the build's output depends on besides the data (scripts/lib/build.ts's codeKey). */
  codeKey: string;
  /** Address (as in the sitemap, without the site) → render key. */
  pages: Record<string, string>;
  /** Each post page's address → its post's id: the search index is kept in shards by id. */
  posts: Record<string, number>;
}

/** What scripts/lib/build.ts gives the build (NESTLING_RENDER_PLAN names a file of it). */
export interface RenderPlanInput {
  codeKey: string;
  /** The live release's keys when its code key is this build's; null: render everything. */
  previous: RenderKeys | null;
  /** Where the build writes what it decided (RenderPlanOutput). */
  out: string;
}

/** What the build decided, for scripts/lib/build.ts and the sitemap. */
export interface RenderPlanOutput extends RenderKeys {
  incremental: boolean;
  /** Keyed pages this build renders. */
  rendered: string[];
  /** Keyed pages whose file the live release already has. */
  kept: string[];
}
