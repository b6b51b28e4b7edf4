import { describe, expect, it } from 'vitest';
import { nodeSupportWarning } from '../../api/lib/node-support.ts';

describe('nodeSupportWarning', () => {
  it('warns on a release line past its end of life', () => {
    expect(nodeSupportWarning('v20.20.0', new Date('2026-11-25T00:00:00Z'))).toBe(
      'Node 20 stopped getting security fixes on 2026-04-30: run production on Node 24 (see docs/deploy.md).',
    );
    expect(nodeSupportWarning('v20.20.0', new Date('2026-04-30T00:00:00Z'))).toMatch(/^Node 20 stopped/);
  });

  it('says nothing while a line still gets fixes, or for a line newer than the table', () => {
    expect(nodeSupportWarning('v20.20.0', new Date('2026-04-29T23:59:59Z'))).toBeNull();
    expect(nodeSupportWarning('v24.11.0', new Date('2026-11-25T00:00:00Z'))).toBeNull();
    expect(nodeSupportWarning('v26.0.0', new Date('2026-11-25T00:00:00Z'))).toBeNull();
  });
});
