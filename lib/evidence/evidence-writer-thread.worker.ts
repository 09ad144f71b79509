// The evidence writer thread's entry (see evidence-writer-thread.ts).
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { SqliteEvidenceStore } from './raw-evidence-store';
import { PostgresEvidenceStore } from './pg-evidence-store';
import type { DatabaseTarget } from '../db/database-url';
import type { EvidenceInput } from './evidence-input';
import type { CommittedWindow } from '../history/window-cache';
import type { WriterReply, WriterRequest } from './evidence-writer-thread';

if (!parentPort) throw new Error('evidence-writer-thread.worker must run as a worker thread');
const port = parentPort;
const { target } = workerData as { target: DatabaseTarget };
const committed = (windows: CommittedWindow[]) => port.postMessage({ id: 0, windows } satisfies WriterReply);
const store =
  target.provider === 'postgresql'
    ? new PostgresEvidenceStore(target.url, committed)
    : new SqliteEvidenceStore(target.file as string, committed);
const { maxBatch } = workerData as { maxBatch: number };

type Batch = Extract<WriterRequest, { inputs: EvidenceInput[] }>;

const waiting: WriterRequest[] = [];
let running = false;

port.on('message', (request: WriterRequest) => {
  waiting.push(request);
  if (!running) void run();
});

/**
 * Commits what has arrived, in arrival order: every batch posted while the previous commit was
 * running goes into the next transaction together (group commit across the thread boundary).
 * One transaction at a time keeps each tenant's chain linear.
 */
async function run(): Promise<void> {
  running = true;
  try {
    for (;;) {
      for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) {
        waiting.push(next.message as WriterRequest);
      }
      if (waiting.length === 0) return;
      const group: Batch[] = [];
      let rows = 0;
      while (waiting.length > 0 && 'inputs' in (waiting[0] as WriterRequest) && (group.length === 0 || rows < maxBatch)) {
        const request = waiting.shift() as Batch;
        group.push(request);
        rows += request.inputs.length;
      }
      if (group.length === 0) {
        const close = waiting.shift() as WriterRequest;
        await store.close();
        port.postMessage({ id: close.id, closed: true } satisfies WriterReply);
        port.close();
        return;
      }
      await commit(group);
    }
  } finally {
    running = false;
  }
}

async function commit(group: Batch[]): Promise<void> {
  try {
    const recorded = await store.commit(group.flatMap((request) => request.inputs));
    let offset = 0;
    for (const request of group) {
      port.postMessage({ id: request.id, recorded: recorded.slice(offset, offset + request.inputs.length) } satisfies WriterReply);
      offset += request.inputs.length;
    }
  } catch (error) {
    const e = error as { message?: unknown; code?: unknown };
    const failure = { message: String(e.message ?? error), code: typeof e.code === 'string' ? e.code : undefined };
    for (const request of group) port.postMessage({ id: request.id, error: failure } satisfies WriterReply);
  }
}
