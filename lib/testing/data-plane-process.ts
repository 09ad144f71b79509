import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export interface DataPlaneProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM and wait; `kill9` kills at once, as a crash would. */
  stop(): Promise<void>;
  kill9(): Promise<void>;
}

/** Starts `npm run data-plane` (the server bundle, scripts/serve.mjs --data-plane) as a real process. */
export async function startDataPlane(options: {
  databaseUrl: string;
  env?: Record<string, string>;
  port?: number;
}): Promise<DataPlaneProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [path.join(root, 'scripts/serve.mjs'), '--data-plane'], {
    cwd: root,
    env: {
      ...process.env,
      VITEST: '',
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      TOOLGATE_CACHE_POLL_MS: '200',
      // A stop closes connections left idle at once; the grace is tested where it is the subject.
      TOOLGATE_DRAIN_GRACE_SECONDS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`data plane did not start:\n${out.slice(-2000)}`)), 60_000);
    const check = () => {
      if (out.includes('data plane on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`data plane exited (${code}):\n${out.slice(-2000)}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill9() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface LoadResult {
  /** x-request-id -> evidence_id for every request that got a 200 with a decision. */
  answered: Map<string, string>;
  failures: number;
  other: Map<number, number>;
}

/**
 * Bounded load from this process: `workers` loops, each sending validate/pre calls one after
 * another until `durationMs` passes, `stop()` resolves, or a connection fails.
 */
/**
 * Concurrent validate/pre calls for `durationMs`; with `untilAnswered`, until that many calls
 * were answered instead (`durationMs` is then only the cap), so a loaded machine makes the
 * test slower rather than weaker.
 */
export async function loadValidatePre(options: {
  urls: string[];
  key: string;
  body: (i: number) => unknown;
  workers: number;
  durationMs: number;
  untilAnswered?: number;
  stopOnError?: boolean;
}): Promise<LoadResult> {
  const answered = new Map<string, string>();
  const other = new Map<number, number>();
  let failures = 0;
  let counter = 0;
  const deadline = Date.now() + options.durationMs;
  await Promise.all(
    Array.from({ length: options.workers }, async (_, w) => {
      const url = options.urls[w % options.urls.length] as string;
      while (Date.now() < deadline && (options.untilAnswered === undefined || answered.size < options.untilAnswered)) {
        const i = counter++;
        const requestId = `load-${process.pid}-${i}`;
        try {
          const res = await fetch(`${url}/api/v1/validate/pre`, {
            method: 'POST',
            headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json', 'x-request-id': requestId },
            body: JSON.stringify(options.body(i)),
          });
          const body = (await res.json()) as { evidence_id?: string };
          if (res.status === 200 && body.evidence_id) answered.set(requestId, body.evidence_id);
          else other.set(res.status, (other.get(res.status) ?? 0) + 1);
        } catch {
          failures++;
          if (options.stopOnError) return;
        }
      }
    }),
  );
  return { answered, failures, other };
}
