import { describe, expect, it } from 'vitest';
import { expectedDraftHash } from './draft-base';
import type { StudioVersion } from './types';

const H1 = '1'.repeat(64);
const H2 = '2'.repeat(64);
const listed = (version: string, status: string, contentHash: string): StudioVersion => ({
  version,
  status,
  contentHash,
  publishedAt: null,
  changeNote: null,
});

describe('expectedDraftHash: the draft a studio save started from', () => {
  const versions = [listed('1.1.0', 'draft', H1), listed('1.0.0', 'published', H2)];

  it('names the draft the editor loaded or last saved, else the listed draft, else none', () => {
    const opened = { openedId: 'refunds', id: 'refunds', versions };
    expect(expectedDraftHash({ ...opened, version: '1.1.0', base: null })).toBe(H1);
    expect(expectedDraftHash({ ...opened, version: '1.1.0', base: { version: '1.1.0', contentHash: H2 } })).toBe(H2);
    expect(expectedDraftHash({ ...opened, version: '1.0.0', base: null })).toBeNull();
    expect(expectedDraftHash({ ...opened, version: '2.0.0', base: null })).toBeNull();
  });

  it('on a "new" page, or with the id edited to another document, names no draft (null), so an existing one is refused', () => {
    expect(expectedDraftHash({ openedId: undefined, id: 'support-default', version: '0.1.0', base: null, versions: [] })).toBeNull();
    expect(expectedDraftHash({ openedId: 'refunds', id: 'credits', version: '1.1.0', base: null, versions })).toBeNull();
  });

  it('checks nothing when the document names no version (the server refuses it)', () => {
    expect(expectedDraftHash({ openedId: 'refunds', id: 'refunds', version: undefined, base: null, versions })).toBeUndefined();
  });
});
