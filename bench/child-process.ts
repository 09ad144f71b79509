// Starting and stopping the servers a benchmark loads: shared by the benches that spawn one.
import type { ChildProcess } from 'node:child_process';

/**
 * Resolves with the first match of `pattern` (its first group when it has one) in the child's
 * output. The pipes keep being read afterwards (a full pipe would stall the child), keeping only
 * the tail for the error message of an early exit.
 */
export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(new Error(`timed out waiting for ${pattern}; output:\n${buffer.slice(-2000)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      if (done) return;
      buffer = (buffer + chunk.toString()).slice(-8000);
      const match = pattern.exec(buffer);
      if (match) {
        done = true;
        clearTimeout(timer);
        resolve(match[1] ?? match[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${buffer.slice(-2000)}`));
    });
  });
}

/** SIGTERM, and waits for the exit (a data plane drains its evidence queue on the way out). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
