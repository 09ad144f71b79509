import { spawn } from 'node:child_process';
import { e2eServerEnv } from './server-env';

/**
 * A second instance of the e2e server on another port, over the same database: with the same
 * public URL (instances behind one load balancer), or its own with other settings (`env`).
 */
export async function startSecondInstance(options: {
  publicUrl: string;
  port: number;
  env?: Record<string, string>;
}): Promise<{ url: string; stop: () => Promise<void> }> {
  const { port } = options;
  const child = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: { ...process.env, ...e2eServerEnv(port, options.publicUrl), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second instance exited:\n${output.slice(-2000)}`);
    const up = await fetch(`${url}/sign-in`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`the second instance did not start:\n${output.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
