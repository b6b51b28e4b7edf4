// Where a listing's screening stands (api/screening/decide.ts): every check and decision in one
// table of cases, so a change to the order of the rules shows here first.
import { describe, expect, it } from 'vitest';
import { decideScreening, type ScreeningInputs } from '../../api/screening/decide.ts';

const inputs = (over: Partial<ScreeningInputs> = {}): ScreeningInputs => ({
  findings: [],
  photos: [],
  recalls: [],
  recallData: true,
  decision: null,
  ...over,
});
const rule = (outcome: 'block' | 'flag' | 'note', text = `a ${outcome}`) => ({
  rule: 'R1',
  outcome,
  text,
  source: 'https://example.gov/rule',
});
const face = {
  state: 'analysed' as const,
  outcome: 'flag' as const,
  reasons: [{ rule: 'photo.face', text: 'A face', source: null }],
};
const clean = { state: 'analysed' as const, outcome: 'pass' as const, reasons: [] };
const queued = { state: 'queued' as const, outcome: null, reasons: [] };
const openRecall = { status: 'open' as const, title: 'Cribs recalled', url: 'https://cpsc.gov/r' };
const confirmed = { ...openRecall, status: 'confirmed' as const };

describe('decideScreening', () => {
  it.each<[string, Partial<ScreeningInputs>, string]>([
    ['nothing found', {}, 'cleared'],
    ['only a note', { findings: [rule('note')] }, 'cleared'],
    ['a rule flags', { findings: [rule('flag')] }, 'held'],
    ['a rule blocks', { findings: [rule('block')] }, 'blocked'],
    ['a photo still queued', { photos: [clean, queued] }, 'pending'],
    ['a rule blocks while a photo waits', { findings: [rule('block')], photos: [queued] }, 'blocked'],
    ['a face', { photos: [face] }, 'held'],
    ['a photo that failed', { photos: [{ state: 'failed', outcome: 'flag', reasons: [] }] }, 'held'],
    ['a possible recall', { recalls: [openRecall] }, 'held'],
    ['a dismissed recall', { recalls: [{ ...openRecall, status: 'dismissed' }] }, 'cleared'],
    ['a confirmed recall', { recalls: [confirmed] }, 'blocked'],
    ['a confirmed recall, cleared by a moderator', { recalls: [confirmed], decision: 'clear' }, 'blocked'],
    ['a moderator blocks a clean listing', { decision: 'block' }, 'blocked'],
    ['a moderator clears a flag', { findings: [rule('flag')], decision: 'clear' }, 'cleared'],
    ['a moderator clears a rule block', { findings: [rule('block')], decision: 'clear' }, 'cleared'],
    ['faces blurred', { photos: [face], decision: 'blur' }, 'cleared'],
    ['a new age group answers the rules', { findings: [rule('flag')], decision: 'reage' }, 'cleared'],
    [
      'a new age group under which a rule blocks',
      { findings: [rule('block')], decision: 'reage' },
      'blocked',
    ],
    ['a new age group never publishes a face', { photos: [face], decision: 'reage' }, 'held'],
    ['a new age group leaves a possible recall held', { recalls: [openRecall], decision: 'reage' }, 'held'],
  ])('%s', (_name, over, state) => {
    expect(decideScreening(inputs(over)).state).toBe(state);
  });

  it('lists the checks that ran, and the notes parents read once each', () => {
    const outcome = decideScreening(
      inputs({ findings: [rule('note', 'Anchor it'), rule('note', 'Anchor it')], photos: [clean] }),
    );
    expect(outcome.ran).toEqual(['rules', 'recall', 'photo']);
    expect(outcome.safetyNotes).toEqual(['Anchor it']);
    expect(decideScreening(inputs({ photos: [queued] })).ran).toEqual(['rules', 'recall']);
  });

  it('claims no recall check before any recall data is imported', () => {
    const outcome = decideScreening(inputs({ recallData: false }));
    expect(outcome.ran).toEqual(['rules']);
    expect(outcome.checks.map((c) => c.check)).toEqual(['rules']);
  });

  it('gives each check its reasons, with sources', () => {
    const outcome = decideScreening(
      inputs({ findings: [rule('flag')], recalls: [openRecall], photos: [face] }),
    );
    expect(outcome.checks).toEqual([
      {
        check: 'rules',
        outcome: 'flag',
        reasons: [{ rule: 'R1', text: 'a flag', source: 'https://example.gov/rule' }],
      },
      {
        check: 'recall',
        outcome: 'flag',
        reasons: [
          {
            rule: 'recall.open',
            text: expect.stringContaining('Cribs recalled'),
            source: 'https://cpsc.gov/r',
          },
        ],
      },
      { check: 'photo', outcome: 'flag', reasons: face.reasons },
    ]);
  });
});
