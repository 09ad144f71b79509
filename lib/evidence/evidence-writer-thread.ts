import { Worker } from 'node:worker_threads';
import { env } from '../env';
import { rememberCommitted, type CommittedWindow } from '../history/window-cache';
import type { EvidenceInput, RawEvidenceStore, RecordedEvidence } from './evidence-input';
import type { DatabaseTarget } from '../db/database-url';
import type { RawEvidenceStoreFactory } from './raw-evidence-store';

export type WriterRequest = { id: number; inputs: EvidenceInput[] } | { id: number; close: true };
export type WriterReply =
  | { id: number; recorded: (RecordedEvidence | null)[] }
  | { id: number; error: { message: string; code?: string } }
  | { id: number; closed: true }
  | { id: 0; windows: CommittedWindow[] };

/**
 * Evidence writes on their own thread. better-sqlite3 is synchronous, so on the request thread
 * every SQLite commit (hashing, inserts, fsync) stopped all other requests. node-postgres is
 * not, but each of a PostgreSQL commit's round trips waited for the busy request thread's
 * event loop to come round (1-2 ms each under load), and its hashing and driver work took the
 * request thread's time. Here the request thread keeps parsing and checking calls while a
 * transaction commits, and everything posted meanwhile goes into the next one. Same statements,
 * one commit at a time per process, the same answer-after-commit rule: a caller's promise
 * resolves only when the thread reports the commit.
 */
export class EvidenceWriterThread implements RawEvidenceStore {
  readonly pipelined = true;
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (reply: WriterReply) => void; reject: (error: Error) => void }>();

  constructor(
    private readonly target: DatabaseTarget,
    private readonly maxBatch: number,
  ) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./evidence-writer-thread.worker.mjs', import.meta.url), {
      workerData: { target: this.target, maxBatch: this.maxBatch },
    });
    worker.on('message', (reply: WriterReply) => {
      // Posted before the replies of the transaction they come from.
      if ('windows' in reply) return rememberCommitted(reply.windows);
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      waiter?.resolve(reply);
    });
    const fail = (error: Error) => {
      // Whatever was in flight is not known to be committed: its callers answer 503.
      if (this.worker === worker) this.worker = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`evidence writer thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private ask(request: Omit<WriterRequest, 'id'>): Promise<WriterReply> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  }

  async commit(inputs: EvidenceInput[]): Promise<(RecordedEvidence | null)[]> {
    const reply = await this.ask({ inputs });
    if ('recorded' in reply) return reply.recorded;
    if ('error' in reply) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
    throw new Error('evidence writer thread: unexpected reply');
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    await this.ask({ close: true }).catch(() => undefined);
    await exited;
  }
}

/** The data plane's store: the plain-SQL store of either database, on a writer thread. */
export const threadedEvidenceStore: RawEvidenceStoreFactory = (target) =>
  new EvidenceWriterThread(target, env().TOOLGATE_EVIDENCE_BATCH_MAX);
