// Vitest setupFiles for every project: the temp folders a test file made (scripts/lib/temp.ts) are
// removed when the file ends. This hook was registered first, so it runs after the file's own
// afterAll hooks have stopped the servers that used them.
import { afterAll } from 'vitest';
import { removeTempDirs } from '../../scripts/lib/temp.ts';

afterAll(removeTempDirs);
