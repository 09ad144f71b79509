// npx toolgate lint <files, directories or globs...> [--format text|json|sarif] [--kind contract|policy|surface]
// Node's side of the CLI: files, streams and the exit status. What the commands do (and its
// tests) lives in lib/cli/run-toolgate.ts.
import { open, readFile, stat } from 'node:fs/promises';
import { MAX_DOCUMENT_CHARS } from '../lib/lint';
import { runToolgate } from '../lib/cli/run-toolgate';
import { expandFileArgs } from '../lib/cli/expand-file-args';
import { logToStderrOnly } from '../lib/log';

// A document over MAX_DOCUMENT_CHARS is refused by the linter anyway; this only stops a huge
// file (or a device such as /dev/zero) from being read into memory first. UTF-8 needs at most
// 4 bytes per UTF-16 code unit, so no lintable document is refused here.
const MAX_FILE_BYTES = 4 * MAX_DOCUMENT_CHARS + 3;

async function readDocument(file: string): Promise<string> {
  // Looked at before it is opened: opening a named pipe (FIFO) waits for a writer, forever.
  const named = await stat(file);
  if (named.isDirectory()) throw new Error('it is a directory');
  if (!named.isFile()) throw new Error('it is not a regular file');
  const handle = await open(file, 'r');
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error('it is not a regular file');
    if (info.size > MAX_FILE_BYTES) throw new Error(`it is ${info.size} bytes; documents are limited to ${MAX_DOCUMENT_CHARS} characters`);
    // Bytes that are not UTF-8 would be read as U+FFFD and linted as text nobody wrote.
    try {
      return UTF8.decode(await handle.readFile());
    } catch {
      throw new Error('it is not valid UTF-8');
    }
  } finally {
    await handle.close();
  }
}

// ignoreBOM keeps a byte order mark in the text, as readFile's 'utf8' did (the linter reports it).
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

async function toolVersion(): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

// A command's stdout is its answer (a link, a table, SARIF), which scripts read: log lines go to stderr.
logToStderrOnly();

process.exitCode = await runToolgate(process.argv.slice(2), {
  readFile: readDocument,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  toolVersion: await toolVersion(),
  expandFiles: (args) => expandFileArgs(args),
});
