import { rmSync } from 'node:fs';

// Each run uses a new scratch database (see playwright.config.ts); remove it and SQLite's
// side files so runs do not pile up in the temp directory.
export default function globalTeardown(): void {
  const file = process.env.TOOLGATE_E2E_DATABASE;
  if (!file) return;
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
}
