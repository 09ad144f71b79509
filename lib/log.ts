/**
 * Structured one-line JSON logs on stdout/stderr: what a log shipper expects, and greppable.
 * Quiet in tests unless TOOLGATE_LOG is set.
 */
type Fields = Record<string, unknown>;

let everythingToStderr = false;

/** For processes whose stdout is a protocol stream (the MCP stdio proxy): every log line goes to stderr. */
export function logToStderrOnly(): void {
  everythingToStderr = true;
}

function write(level: 'info' | 'warn' | 'error', message: string, fields: Fields = {}): void {
  if (process.env.VITEST && !process.env.TOOLGATE_LOG) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields });
  if (level === 'error' || everythingToStderr) process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const log = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};
