import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The order a run starts its files in: the longest first, so that no long file starts last and runs
// on alone at the end (three at a time on CI's two cores). Vitest's own order takes the projects by
// name (api, api-pg, e2e, …), so the browser files, the longest, started only once every API file
// had. Browser files come first here, then PostgreSQL's API files, SQLite's, and the unit files,
// which are short and fill the gaps at the end. A project's files stay together: the API and unit
// projects share one worker's modules between consecutive files.
const PROJECTS = ['e2e', 'e2e-pg', 'smoke', 'api-pg', 'api', 'unit'];

/**
 * The browser files that build the site more than once, the longest of all (a build takes about a
 * minute on CI's busy machine). Within a project Vitest's order holds otherwise: the longest of the
 * last run first when it knows them, else the largest file.
 */
const BUILDS_FIRST = [
  'tests/e2e/incremental-publish.test.ts',
  'tests/e2e/studio.test.ts',
  'tests/e2e/publish.test.ts',
];

const rank = (spec: TestSpecification) => {
  const project = PROJECTS.indexOf(spec.project.name);
  return project === -1 ? PROJECTS.length : project;
};

const first = (spec: TestSpecification) => {
  const at = BUILDS_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
  return at === -1 ? BUILDS_FIRST.length : at;
};

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const place = new Map(sorted.map((spec, index) => [spec, index]));
    return sorted.sort((a, b) => rank(a) - rank(b) || first(a) - first(b) || place.get(a)! - place.get(b)!);
  }
}
