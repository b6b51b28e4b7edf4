// What a photo's analysis means for its listing (docs/product.md, "Listing screening"). The models
// give scores, not facts: a score never rejects a listing, it only holds it for a moderator, who
// sees the photo and decides. Pure: no model, no database.
import type { ScreeningReason } from '../../contract/screening.ts';
import type { PhotoAnalysis } from './analyse.ts';

/**
 * Nudity, from nsfwjs's five scores (they add up to 1). The photos are of cots, prams and clothes,
 * where "porn" and "hentai" together stay near 0 (a few hundredths on the test photos): a third of
 * the score there is far from normal, so it is held. "sexy" (revealing, not explicit) also rises
 * for swimwear and people in vests, which second-hand children's clothes show often, so it holds
 * only when the model is fairly sure. Both are low on purpose: a false hold costs a moderator a
 * glance, a missed one puts a nude photo on a children's marketplace.
 */
export const NUDITY_EXPLICIT_MIN = 0.3;
export const NUDITY_SUGGESTIVE_MIN = 0.6;

/**
 * A face counts from this detector confidence (SSD MobileNet v1, 0–1). The model's own default;
 * below it, patterns in wood grain and fabric start to count as faces. A cat's face can score
 * above it: that is a false hold a moderator clears.
 */
export const FACE_MIN_CONFIDENCE = 0.5;

export const NUDITY_TEXT = 'The photo may show nudity; a moderator will look at it.';

export function faceText(count: number): string {
  const found = count === 1 ? '1 face found' : `${count} faces found`;
  return `The photo shows a person's face (${found}); Nestling does not show people in listing photos unless their faces are blurred.`;
}

export interface PhotoFindings {
  outcome: 'pass' | 'flag';
  reasons: ScreeningReason[];
}

/** What one photo's analysis says for its listing: held (`flag`) with reasons, or `pass`. */
export function photoFindings(analysis: PhotoAnalysis): PhotoFindings {
  const reasons: ScreeningReason[] = [];
  const { porn, hentai, sexy } = analysis.nsfw;
  if (porn + hentai >= NUDITY_EXPLICIT_MIN || sexy >= NUDITY_SUGGESTIVE_MIN) {
    reasons.push({ rule: 'photo.nudity', text: NUDITY_TEXT, source: null });
  }
  // Any face is held: the privacy policy says Nestling never asks for a child's photo, and no age
  // is guessed from a face. A moderator can publish the photo with the faces blurred.
  if (analysis.faces.length > 0 || analysis.people) {
    reasons.push({ rule: 'photo.face', text: faceText(analysis.faces.length), source: null });
  }
  return { outcome: reasons.length > 0 ? 'flag' : 'pass', reasons };
}
