import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EvidenceVerification } from './verification-types';

// The walk itself is the database's (evidence-verification-joined.int.test.ts); here, who joins
// which walk and when it stops, with walks that end when the test says.
const walks: {
  tenantId: string;
  mode?: string;
  signal: AbortSignal;
  finish: (v: EvidenceVerification) => void;
  fail: (error: Error) => void;
}[] = [];
vi.mock('./verify-evidence', () => ({
  verifyEvidence: (options: { tenantId: string; mode?: string; signal: AbortSignal }) =>
    new Promise<EvidenceVerification>((resolve, reject) => {
      walks.push({ ...options, finish: resolve, fail: reject });
      options.signal.addEventListener('abort', () => reject(options.signal.reason), { once: true });
    }),
}));
const { verifyEvidenceJoined } = await import('./joined-verify');

const answer = (records: number) => ({ valid: true, records }) as EvidenceVerification;
const settled = <T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

beforeEach(() => {
  walks.length = 0;
});

describe('verifyEvidenceJoined', () => {
  it('one walk per tenant and mode while it runs; a new one after it ends', async () => {
    const first = verifyEvidenceJoined({ tenantId: 't1' });
    const second = verifyEvidenceJoined({ tenantId: 't1', mode: 'incremental' });
    const other = verifyEvidenceJoined({ tenantId: 't2' });
    const full = verifyEvidenceJoined({ tenantId: 't1', mode: 'full' });
    expect(walks.map((w) => [w.tenantId, w.mode])).toEqual([
      ['t1', undefined],
      ['t2', undefined],
      ['t1', 'full'],
    ]);
    walks[0]!.finish(answer(1));
    walks[1]!.finish(answer(2));
    walks[2]!.finish(answer(3));
    expect(await Promise.all([first, second, other, full])).toEqual([answer(1), answer(1), answer(2), answer(3)]);
    void verifyEvidenceJoined({ tenantId: 't1' });
    expect(walks).toHaveLength(4);
  });

  it('one leaving gets its reason and the walk goes on for the rest; the last leaving stops it', async () => {
    const a = new AbortController();
    const b = new AbortController();
    const first = settled(verifyEvidenceJoined({ tenantId: 't', signal: a.signal }));
    const second = settled(verifyEvidenceJoined({ tenantId: 't', signal: b.signal }));
    const walk = walks[0]!;
    a.abort(new DOMException('gone', 'AbortError'));
    expect((await first).error).toMatchObject({ name: 'AbortError', message: 'gone' });
    expect(walk.signal.aborted).toBe(false);

    b.abort();
    expect((await second).error).toMatchObject({ name: 'AbortError' });
    expect(walk.signal.aborted).toBe(true);
    // A stopped walk is not joined.
    const third = verifyEvidenceJoined({ tenantId: 't' });
    expect(walks).toHaveLength(2);
    walks[1]!.finish(answer(5));
    expect(await third).toEqual(answer(5));
  });

  it('a request already gone starts nothing', async () => {
    const gone = new AbortController();
    gone.abort();
    await expect(verifyEvidenceJoined({ tenantId: 't', signal: gone.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(walks).toHaveLength(0);
  });

  it('a walk that fails fails every one waiting, and the next request walks again', async () => {
    const first = settled(verifyEvidenceJoined({ tenantId: 'f' }));
    const second = settled(verifyEvidenceJoined({ tenantId: 'f' }));
    walks[0]!.fail(new Error('database went away'));
    expect(await first).toEqual({ error: new Error('database went away') });
    expect(await second).toEqual({ error: new Error('database went away') });
    void verifyEvidenceJoined({ tenantId: 'f' });
    expect(walks).toHaveLength(2);
  });
});
