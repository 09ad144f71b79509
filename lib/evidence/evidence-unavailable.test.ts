import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from '../log';
import { EvidenceWriter } from './evidence-writer';
import {
  COMMIT_FAILURE_LOG_INTERVAL_MS,
  evidenceUnavailableCounts,
  noteCommitFailed,
  noteCommitSucceeded,
  resetEvidenceUnavailableForTests,
} from './evidence-unavailable';
import type { EvidenceInput } from './evidence-input';

afterEach(() => {
  resetEvidenceUnavailableForTests();
  vi.restoreAllMocks();
});

describe('noteCommitFailed', () => {
  it('logs the first failure, then at most every 10 s with the calls refused since the last line', () => {
    const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const t0 = 1_000_000;
    expect(noteCommitFailed(new Error('disk full'), 3, t0)).toBe(true);
    expect(noteCommitFailed(new Error('disk full'), 5, t0 + 1)).toBe(false);
    expect(noteCommitFailed(new Error('disk full'), 7, t0 + COMMIT_FAILURE_LOG_INTERVAL_MS - 1)).toBe(false);
    expect(noteCommitFailed(new Error('database is locked'), 2, t0 + COMMIT_FAILURE_LOG_INTERVAL_MS)).toBe(true);
    expect(error.mock.calls).toEqual([
      ['evidence commit failed', { error: 'disk full', calls_refused_since_last_line: 3 }],
      ['evidence commit failed', { error: 'database is locked', calls_refused_since_last_line: 14 }],
    ]);
  });
});

describe('noteCommitSucceeded', () => {
  it('says once that commits go through again after failures, and nothing otherwise', () => {
    const info = vi.spyOn(log, 'info').mockImplementation(() => undefined);
    vi.spyOn(log, 'error').mockImplementation(() => undefined);
    noteCommitSucceeded();
    noteCommitFailed(new Error('disk full'), 4, 1_000);
    noteCommitFailed(new Error('disk full'), 6, 2_000);
    noteCommitSucceeded();
    noteCommitSucceeded();
    expect(info.mock.calls).toEqual([['evidence commits succeed again', { calls_refused_since_last_line: 6 }]]);
    expect(evidenceUnavailableCounts()).toEqual({ evidence_unavailable: 10, evidence_queue_full: 0 });
  });
});

describe('a full evidence queue', () => {
  it('is counted as evidence_queue_full, one per call refused', async () => {
    const writer = new EvidenceWriter({ maxQueue: 0, maxBatch: 10 });
    const input = { tenantId: 't', argsHash: 'a'.repeat(64), contractHash: null } as unknown as EvidenceInput;
    await expect(writer.write(input)).rejects.toMatchObject({ code: 'unavailable', details: { reason: 'evidence_queue_full' } });
    await expect(writer.write(input)).rejects.toMatchObject({ code: 'unavailable' });
    expect(evidenceUnavailableCounts()).toEqual({ evidence_unavailable: 0, evidence_queue_full: 2 });
  });
});
