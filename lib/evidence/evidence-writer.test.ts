import { describe, expect, it } from 'vitest';
import { EvidenceWriter } from './evidence-writer';
import type { RawEvidenceStore } from './evidence-input';
import type { EvidenceInput, RecordedEvidence } from './record-evidence';

const input = (i: number): EvidenceInput => ({
  tenantId: 't',
  kind: 'pre',
  requestId: `r${i}`,
  traceId: 'tr',
  callId: `c${i}`,
  tool: 'x.y',
  argsHash: 'a'.repeat(64),
  decision: 'allow',
  valid: true,
  errors: [],
  warnings: [],
  durationMs: 1,
});

/** A store that records each commit and acknowledges it when told to. */
function fakeStore(pipelined: boolean) {
  const commits: { inputs: EvidenceInput[]; done: (ok: boolean) => void }[] = [];
  let seq = 0;
  const store: RawEvidenceStore = {
    pipelined,
    commit: (inputs) =>
      new Promise<RecordedEvidence[]>((resolve, reject) => {
        commits.push({
          inputs,
          done: (ok) =>
            ok
              ? resolve(inputs.map((i) => ({ id: i.requestId, seq: ++seq, hash: 'h' })))
              : reject(Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' })),
        });
      }),
    close: async () => undefined,
  };
  return { store, commits };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('EvidenceWriter', () => {
  it('refuses a record whose argsHash or contractHash is not a hex digest (stored as bytes, it would not verify), alone', async () => {
    const { store, commits } = fakeStore(true);
    const writer = new EvidenceWriter({ maxQueue: 100, maxBatch: 50, storeFactory: () => store });
    for (const bad of [{ argsHash: 'args-1' }, { argsHash: 'A'.repeat(64) }, { argsHash: 'a'.repeat(63) }, { contractHash: 'h' }])
      await expect(writer.write({ ...input(0), ...bad })).rejects.toThrow(/hex digests/);
    const good = writer.write({ ...input(1), contractHash: null });
    await turn();
    expect(commits.map((c) => c.inputs.map((i) => i.requestId))).toEqual([['r1']]);
    commits[0]?.done(true);
    await expect(good).resolves.toMatchObject({ seq: 1 });
  });

  it('hands every record written in one turn of the event loop to the store as one batch', async () => {
    const { store, commits } = fakeStore(true);
    const writer = new EvidenceWriter({ maxQueue: 100, maxBatch: 50, storeFactory: () => store });
    // Three callbacks of one turn, as three requests read from three sockets would be.
    const first = (
      await Promise.all(
        [1, 2, 3].map(
          (i) =>
            new Promise<{ written: Promise<RecordedEvidence> }>((resolve) =>
              setImmediate(() => resolve({ written: writer.write(input(i)) })),
            ),
        ),
      )
    ).map((w) => w.written);
    await turn();
    expect(commits.map((c) => c.inputs.map((i) => i.requestId))).toEqual([['r1', 'r2', 'r3']]);
    // A pipelined store takes the next turn's records while the first batch is still committing.
    const second = [4, 5].map((i) => writer.write(input(i)));
    await turn();
    expect(commits.map((c) => c.inputs.length)).toEqual([3, 2]);
    commits[1]?.done(true);
    commits[0]?.done(true);
    expect((await Promise.all([...first, ...second])).map((r) => r.id)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('answers nothing before its own batch is committed, and 503 for every record of a failed batch', async () => {
    const { store, commits } = fakeStore(true);
    const writer = new EvidenceWriter({ maxQueue: 100, maxBatch: 50, storeFactory: () => store });
    let settled = 0;
    const pending = [1, 2].map((i) => writer.write(input(i)).finally(() => settled++));
    await turn();
    await turn();
    expect(settled).toBe(0);
    commits[0]?.done(false);
    const results = await Promise.allSettled(pending);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({
      status: 503,
      code: 'unavailable',
      headers: { 'retry-after': '2' },
    });
  });

  it('refuses with 503 and Retry-After past the queue bound, counting records still committing', async () => {
    const { store, commits } = fakeStore(true);
    const writer = new EvidenceWriter({ maxQueue: 2, maxBatch: 50, storeFactory: () => store });
    const accepted = [writer.write(input(1)), writer.write(input(2))];
    await turn();
    expect(commits).toHaveLength(1);
    await expect(writer.write(input(3))).rejects.toMatchObject({
      status: 503,
      details: { reason: 'evidence_queue_full' },
      headers: { 'retry-after': '1' },
    });
    commits[0]?.done(true);
    await Promise.all(accepted);
    await expect(Promise.race([writer.write(input(4)), turn().then(() => 'queued')])).resolves.toBe('queued');
  });
});
