// Listing photos (docs/product.md, "Listing screening"): fetched from the marketplace's hosts,
// re-encoded without metadata, analysed in worker threads by models shipped in npm packages, and
// what the analysis means for the listing. The models themselves (analyse.ts) load only inside a
// worker (worker.ts), never in the process that imports this.
export type { NsfwScores, PhotoAnalysis } from './analyse.ts';
export { fetchPhoto, type FetchedPhoto, type FetchPhotoOptions, PHOTO_MAX_BYTES } from './fetch.ts';
export {
  FACE_MIN_CONFIDENCE,
  NUDITY_EXPLICIT_MIN,
  NUDITY_SUGGESTIVE_MIN,
  photoFindings,
  type PhotoFindings,
} from './outcome.ts';
export {
  createPhotoAnalyser,
  PhotoAnalysisFailed,
  type PhotoAnalyser,
  type PhotoAnalyserOptions,
} from './pool.ts';
export { type AnalysisPixels, blurFaces, type PreparedPhoto, preparePhoto } from './prepare.ts';
