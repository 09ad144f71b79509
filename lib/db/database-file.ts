import { statSync } from 'node:fs';
import { log } from '../log';

/**
 * The SQLite file this server opened, as the file system knew it then (device and inode). A file
 * deleted (`rm -rf data/`) or replaced (a restore copied over it) while the server runs leaves
 * every open connection writing to the old, unlinked inode: each decision still committed its
 * evidence, to a file nobody can open again, and the next start found an empty database and made
 * a new demo tenant. Once the path no longer names that inode, decisions are refused (503
 * evidence_unavailable) and /healthz says so, until the server is restarted on the right file.
 */
interface Watched {
  file: string;
  dev: number;
  ino: number;
  birthtimeMs: number;
  intervalMs: number;
  checkedAt: number;
  /** Once seen, kept until restart: a file put back at the path is not the one the connections hold, even when it reuses the inode number. */
  problem: DatabaseFileProblem | null;
}
// On globalThis: start-up arms it, and Next's route bundle (its own copy of this module) reads it.
const holder = globalThis as unknown as { toolgateDatabaseFile?: Watched };

/**
 * Called once the server has migrated `file` and before it serves. The path is looked at most
 * once per `intervalMs`: a stat costs 2-5 us here, which on every evidence batch was a few per
 * cent of the data plane's CPU; 50 ms of records is what a deletion can still take with it.
 */
export function watchDatabaseFile(file: string, intervalMs = 50): void {
  const stat = statSync(file);
  holder.toolgateDatabaseFile = {
    file,
    dev: stat.dev,
    ino: stat.ino,
    birthtimeMs: stat.birthtimeMs,
    intervalMs,
    checkedAt: 0,
    problem: null,
  };
}

export type DatabaseFileProblem = 'database_file_deleted' | 'database_file_replaced';

/** What happened to the watched file, or null while the path still names the file opened (or nothing is watched). */
export function databaseFileProblem(): DatabaseFileProblem | null {
  const watched = holder.toolgateDatabaseFile;
  if (!watched) return null;
  if (watched.problem) return watched.problem;
  const now = performance.now();
  if (watched.intervalMs > 0 && now - watched.checkedAt < watched.intervalMs) return null;
  watched.checkedAt = now;
  let problem: DatabaseFileProblem | null = null;
  try {
    const stat = statSync(watched.file);
    // Where the file system keeps a creation time, a new file that reuses the inode number differs in it.
    if (stat.ino !== watched.ino || stat.dev !== watched.dev || stat.birthtimeMs !== watched.birthtimeMs)
      problem = 'database_file_replaced';
  } catch (error) {
    // Only a path that names nothing; a permission or I/O error on stat is not proof of loss.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') problem = 'database_file_deleted';
  }
  if (problem) {
    watched.problem = problem;
    log.error(
      `the SQLite file DATABASE_URL names was ${problem === 'database_file_deleted' ? 'deleted' : 'replaced by another file'} while Toolgate ran: ` +
        'decisions are refused from now on, since their evidence would go to a file no one can open again; ' +
        'put the file back if it was a mistake and restart Toolgate',
      { file: watched.file },
    );
  }
  return problem;
}

export function stopWatchingDatabaseFileForTests(): void {
  holder.toolgateDatabaseFile = undefined;
}
