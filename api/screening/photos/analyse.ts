// The photo models, run inside a photo worker (worker.ts), never on the server's main thread:
// nsfwjs's MobileNetV2 (nudity) and face-api's SSD MobileNet v1 (faces, with boxes), both on
// TensorFlow.js's WebAssembly backend. Everything they load ships inside their npm packages and is
// read from node_modules with fs: the weights (nsfwjs's bundled model files, face-api's model/
// folder) and the backend's .wasm binary. Nothing is fetched, at install or at run time
// (docs/decisions/023-photo-analysis-in-npm-packages.md).
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FaceBox } from '../../contract/screening.ts';
import { FACE_MIN_CONFIDENCE } from './outcome.ts';
import type { AnalysisPixels } from './prepare.ts';

type Tf = typeof import('@tensorflow/tfjs');
type TfWasm = typeof import('@tensorflow/tfjs-backend-wasm');
type FaceApi = typeof import('@vladmandic/face-api/dist/face-api.node-wasm.js');
type NsfwCore = typeof import('nsfwjs/core');
type NsfwModel = Awaited<ReturnType<NsfwCore['load']>>;
type NsfwDefinition = import('nsfwjs/core').ModelDefinition;
/** face-api declares its own copy of TensorFlow.js's types; the tensors are the same at run time. */
type FaceInput = Parameters<FaceApi['detectAllFaces']>[0];

const require = createRequire(import.meta.url);

/** nsfwjs's five scores, 0–1, adding up to 1. */
export interface NsfwScores {
  porn: number;
  hentai: number;
  sexy: number;
  neutral: number;
  drawing: number;
}

export interface PhotoAnalysis {
  nsfw: NsfwScores;
  /** Faces found, as fractions (0–1) of the photo's width and height. */
  faces: FaceBox[];
  /**
   * Whether the photo shows a person: a face was found. A person seen from behind, or too small
   * for the detector, is not found (there is no person model in these packages).
   */
  people: boolean;
  /** How long the models took on this photo. */
  ms: number;
}

export interface Models {
  tf: Tf;
  nsfw: NsfwModel;
  faceapi: FaceApi;
}

/** The most faces reported in one photo: a crowd is held all the same. */
const FACE_MAX_RESULTS = 50;

let models: Promise<Models> | null = null;

/** Loads the backend and both models, once per thread. */
export function loadModels(): Promise<Models> {
  models ??= load().catch((error: unknown) => {
    models = null;
    throw error;
  });
  return models;
}

async function load(): Promise<Models> {
  const tf = require('@tensorflow/tfjs') as Tf;
  const wasm = require('@tensorflow/tfjs-backend-wasm') as TfWasm;
  // The .wasm binaries beside the backend's own script, read with fs (Emscripten does so under
  // Node for a file path). Single-threaded SIMD: one core a worker, as the pool plans.
  wasm.setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep);
  if (!(await tf.setBackend('wasm')))
    throw new Error('The WebAssembly backend of TensorFlow.js did not start.');
  await tf.ready();
  // The node-wasm build of face-api uses the TensorFlow.js loaded above (it requires the same
  // packages), where its default build would want @tensorflow/tfjs-node.
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(
    path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model'),
  );
  // nsfwjs's MobileNetV2 ships as two CommonJS files of its own (model.min.js and a base64 weight
  // shard), handed to its loader, which names no address and fetches nothing. Required, not imported:
  // importing CommonJS from an ES module makes Node scan the source for its exports (TensorFlow.js's
  // bundles and the 3.5 MB shard, about 0.3 s of CPU a start); and nsfwjs's own CommonJS definition
  // would copy the shard's string a character a property.
  const { load: loadNsfw } = require('nsfwjs/core') as NsfwCore;
  // Where nsfwjs's own definition finds them: dist/models/mobilenet_v2, beside dist/cjs/models.
  const files = path.resolve(
    path.dirname(require.resolve('nsfwjs/models/mobilenet_v2')),
    '../../models/mobilenet_v2',
  );
  const mobileNetV2: NsfwDefinition = {
    name: 'MobileNetV2',
    numOfWeightBundles: 1,
    modelJson: () => Promise.resolve({ default: require(path.join(files, 'model.min.js')) }),
    weightBundles: [
      () => Promise.resolve({ default: require(path.join(files, 'group1-shard1of1.min.js')) as string }),
    ],
  };
  const info = console.info;
  console.info = () => undefined; // nsfwjs greets every load with a link to its docs
  let nsfw: NsfwModel;
  try {
    nsfw = await loadNsfw('MobileNetV2', { modelDefinitions: [mobileNetV2] });
  } finally {
    console.info = info;
  }
  // One run on a blank image: the detector's first run builds its kernels (about 1.5 s), which
  // belongs to the start, not to the first listing's photo and its time limit.
  const blank = tf.zeros([64, 64, 3], 'int32');
  try {
    await faceapi.detectAllFaces(
      blank as unknown as FaceInput,
      new faceapi.SsdMobilenetv1Options({ minConfidence: FACE_MIN_CONFIDENCE }),
    );
  } finally {
    blank.dispose();
  }
  return { tf, nsfw, faceapi };
}

/** Runs both models on a photo's pixels (RGB, longest side about 640). */
export async function analysePixels(pixels: AnalysisPixels): Promise<PhotoAnalysis> {
  const { tf, nsfw, faceapi } = await loadModels();
  const started = performance.now();
  const { width, height } = pixels;
  if (!width || !height || pixels.data.length !== width * height * 3) {
    throw new Error('The pixels are not an RGB image of the size given.');
  }
  const image = tf.tensor3d(pixels.data, [height, width, 3], 'int32');
  try {
    const predictions = await nsfw.classify(image, 5);
    const score = (name: string) => predictions.find((p) => p.className === name)?.probability ?? 0;
    const detections = await faceapi.detectAllFaces(
      image as unknown as FaceInput,
      new faceapi.SsdMobilenetv1Options({ minConfidence: FACE_MIN_CONFIDENCE, maxResults: FACE_MAX_RESULTS }),
    );
    const faces = detections.map((d) => faceBox(d.relativeBox)).filter((box) => box !== null);
    return {
      nsfw: {
        porn: score('Porn'),
        hentai: score('Hentai'),
        sexy: score('Sexy'),
        neutral: score('Neutral'),
        drawing: score('Drawing'),
      },
      faces,
      people: faces.length > 0,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    image.dispose();
  }
}

/** A detector box clipped to the photo (a box can reach past an edge), or null if none is left. */
function faceBox(box: { x: number; y: number; width: number; height: number }): FaceBox | null {
  const clip = (v: number) => Math.min(1, Math.max(0, v));
  const x0 = clip(box.x);
  const y0 = clip(box.y);
  const x1 = clip(box.x + box.width);
  const y1 = clip(box.y + box.height);
  if (!(x1 > x0 && y1 > y0)) return null;
  const round = (v: number) => Math.round(v * 10_000) / 10_000;
  return { x: round(x0), y: round(y0), width: round(x1 - x0), height: round(y1 - y0) };
}
