// One photo worker thread (started by pool.ts): loads the models once, says it is ready, then
// answers one photo at a time. The decode, the resize and the models all run here, so a photo
// never holds up the server's event loop. A photo that cannot be analysed is answered in words;
// a crash or a hang is the pool's to notice (it replaces the thread).
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { analysePixels, loadModels } from './analyse.ts';
import { pixelsForAnalysis } from './prepare.ts';
import type { WorkerJob, WorkerMessage } from './pool.ts';

const port = parentPort;
if (!port) throw new Error('api/screening/photos/worker.ts runs only as a worker thread (see pool.ts).');

const send = (message: WorkerMessage) => port.postMessage(message);

/**
 * The models run at a lower priority than the server: on Linux a nice value is a thread's own, so
 * this lowers this thread alone, and the main thread (the API) goes first when the cores are busy.
 */
const WORKER_NICE = 10;
try {
  os.setPriority(WORKER_NICE);
} catch {
  // Not allowed here (some containers): the worker runs at the process's priority.
}

try {
  await loadModels();
  send({ type: 'ready' });
} catch (error) {
  send({ type: 'broken', reason: `The photo models could not be loaded: ${describe(error)}` });
  process.exit(1);
}

port.on('message', (job: WorkerJob) => {
  void pixelsForAnalysis(job.jpeg)
    .then(analysePixels)
    .then(
      (analysis) => send({ type: 'done', id: job.id, analysis }),
      (error: unknown) => send({ type: 'failed', id: job.id, reason: describe(error) }),
    );
});

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
