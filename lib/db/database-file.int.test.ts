import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { healthHandler } from '@/lib/api/handlers/health';
import { db } from '@/lib/db';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { log } from '@/lib/log';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { resetEvidenceUnavailableForTests } from '@/lib/evidence/evidence-unavailable';
import { stopWatchingDatabaseFileForTests, watchDatabaseFile } from './database-file';

// The SQLite file deleted or replaced under a running server: its connections would go on
// committing evidence to an unlinked inode, lost at the next start. The server watches the file
// it opened (a stand-in file here, so the test's own database stays) and refuses to decide.
let t: Awaited<ReturnType<typeof createTestTenant>>;
let dir = '';
let n = 0;

const lookup = () =>
  call(validatePre, {
    key: t.agentKey,
    body: {
      tool: 'orders.lookup',
      call_id: `f-${++n}`,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme' },
    },
  });

beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  dir = mkdtempSync(path.join(tmpdir(), 'toolgate-dbfile-'));
});
afterEach(() => {
  stopWatchingDatabaseFileForTests();
  resetEvidenceUnavailableForTests();
  vi.restoreAllMocks();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the database file deleted or replaced while the server runs', () => {
  it('deleted: decisions are refused 503 evidence_unavailable and nothing is recorded; /healthz says database_file_deleted; logged once', async () => {
    const file = path.join(dir, 'deleted.db');
    writeFileSync(file, 'stand-in');
    watchDatabaseFile(file, 0);
    expect((await lookup()).body.decision).toBe('allow');
    expect((await call(healthHandler, {})).status).toBe(200);

    const error = vi.spyOn(log, 'error');
    const stored = await db().evidence.count();
    unlinkSync(file);
    for (const answer of await Promise.all([lookup(), lookup(), lookup()])) {
      expect(answer.status).toBe(503);
      expect(answer.body.error.details.reason).toBe('evidence_unavailable');
    }
    expect(await db().evidence.count()).toBe(stored);
    const health = await call(healthHandler, {});
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: 'unavailable', reason: 'database_file_deleted' });
    const lines = error.mock.calls.filter(([message]) => String(message).startsWith('the SQLite file DATABASE_URL names was deleted'));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[1]).toEqual({ file });

    // Put back (a new file at the same path, perhaps with the same inode number): the open
    // connections still hold the deleted one, so it stays refused until a restart.
    writeFileSync(file, 'restored');
    expect((await lookup()).status).toBe(503);
    expect((await call(healthHandler, {})).body).toEqual({ status: 'unavailable', reason: 'database_file_deleted' });
    expect(error.mock.calls.filter(([message]) => String(message).startsWith('the SQLite file'))).toHaveLength(1);
  });

  it('replaced by another file (a restore copied over it): refused alike', async () => {
    const file = path.join(dir, 'replaced.db');
    writeFileSync(file, 'stand-in');
    watchDatabaseFile(file, 0);
    writeFileSync(path.join(dir, 'backup.db'), 'backup');
    const { renameSync } = await import('node:fs');
    renameSync(path.join(dir, 'backup.db'), file);
    const answer = await lookup();
    expect(answer.status).toBe(503);
    expect(answer.body.error.details.reason).toBe('evidence_unavailable');
    expect((await call(healthHandler, {})).body).toEqual({ status: 'unavailable', reason: 'database_file_replaced' });
  });

  it('a file written in place (the same inode) is not a replacement, and nothing watched means nothing refused', async () => {
    const file = path.join(dir, 'same.db');
    writeFileSync(file, 'stand-in');
    watchDatabaseFile(file, 0);
    writeFileSync(file, 'rewritten in place');
    expect((await lookup()).body.decision).toBe('allow');
    stopWatchingDatabaseFileForTests();
    unlinkSync(file);
    expect((await lookup()).body.decision).toBe('allow');
  });
});
