// npx toolgate lint <files, directories or globs...> [--format text|json|sarif] [--kind contract|policy|surface]
// Node's side of the CLI: files, streams and the exit status. What the commands do (and its
// tests) lives in lib/cli/run-toolgate.ts.
import { open, readFile } from 'node:fs/promises';
import { MAX_DOCUMENT_CHARS } from '../lib/lint';
import { runToolgate } from '../lib/cli/run-toolgate';
import { expandFileArgs } from '../lib/cli/expand-file-args';

// A document over MAX_DOCUMENT_CHARS is refused by the linter anyway; this only stops a huge
// file (or a device such as /dev/zero) from being read into memory first. UTF-8 needs at most
// 4 bytes per UTF-16 code unit, so no lintable document is refused here.
const MAX_FILE_BYTES = 4 * MAX_DOCUMENT_CHARS + 3;

async function readDocument(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new Error('it is a directory');
    if (!info.isFile()) throw new Error('it is not a regular file');
    if (info.size > MAX_FILE_BYTES) throw new Error(`it is ${info.size} bytes; documents are limited to ${MAX_DOCUMENT_CHARS} characters`);
    return await handle.readFile({ encoding: 'utf8' });
  } finally {
    await handle.close();
  }
}

async function toolVersion(): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

process.exitCode = await runToolgate(process.argv.slice(2), {
  readFile: readDocument,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  toolVersion: await toolVersion(),
  expandFiles: (args) => expandFileArgs(args),
});
