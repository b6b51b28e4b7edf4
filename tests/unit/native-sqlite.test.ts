// better-sqlite3 12 compiled against the headers of Node 24.19 or later aborts the whole process
// when the garbage collector frees a statement (Node issue 65446: node_object_wrap.h gained
// cleanup hooks). Kysely prepares a statement per query, so a server dies within seconds. This
// checks the build installed here, on the Node that runs the tests, in a child process.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const STATEMENTS = 20_000;

it('survives the garbage collection of thousands of prepared statements', () => {
  const script = `
    const db = new (require('better-sqlite3'))(':memory:');
    let sum = 0;
    for (let i = 0; i < ${STATEMENTS}; i++) sum += db.prepare('select ? as v').get(1).v;
    console.log(sum);
  `;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
  const advice =
    `better-sqlite3 died with ${result.signal ?? `exit code ${result.status}`} on Node ` +
    `${process.version}: rebuild it against Node 24.18.1's headers (README, Node versions).\n` +
    result.stderr.slice(0, 2000);
  expect(result.signal, advice).toBeNull();
  expect(result.status, advice).toBe(0);
  expect(result.stdout.trim()).toBe(String(STATEMENTS));
});
