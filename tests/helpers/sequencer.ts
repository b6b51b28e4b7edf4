// Vitest's own order of test files, with one change: inside a project, the files of one test
// environment (node, jsdom) run one after another. Files share their worker's modules
// (isolate: false), but Vitest keeps a worker for the next file only when the file next in its queue
// is of the same project and environment; otherwise it ends the worker, and a new one imports
// everything again. The unit project mixes node and jsdom files, and in the default order (by
// size) most of them started a worker of their own: the project took 63 s of CPU and 33 s, against
// 40 s and 22 s with the environments together (measured on a 2-core machine).
import fs from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A file's `// @vitest-environment name` (or ` * @vitest-environment name` in a docblock). */
const PRAGMA = /^\s*(?:\/\/|\/\*\*?|\*)\s*@vitest-environment\s+([\w-]+)/m;

function environmentOf(spec: TestSpecification): string {
  const head = fs.readFileSync(spec.moduleId, 'utf8').slice(0, 4096);
  return PRAGMA.exec(head)?.[1] ?? spec.project.config.environment;
}

/** The files in an order drawn from `seed` (Fisher–Yates with mulberry32): the same seed, the same order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export default class EnvironmentsTogether extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // A sequencer of one's own replaces Vitest's shuffling one, so `--sequence.shuffle` (files and
    // tests) is honoured here: the files in a seeded random order, then grouped as always.
    const { shuffle, seed } = this.ctx.config.sequence;
    const ordered = shuffle === true ? shuffled(files, seed) : await super.sort(files);
    const groups = new Map<string, TestSpecification[]>();
    for (const spec of ordered) {
      const key = `${spec.project.name}\0${environmentOf(spec)}`;
      const group = groups.get(key);
      if (group) group.push(spec);
      else groups.set(key, [spec]);
    }
    // Each group keeps Vitest's order, and comes where its first file came.
    return [...groups.values()].flat();
  }
}
