// npm run import-tools -- --url http://localhost:3000 --key tg_... [--version 1.0.0] tools.ts...
// Saves every defineTool export of the modules as a draft contract; the logic (and its tests)
// live in packages/sdk/src/import-tools.ts, this file only supplies Node: argv, tsx loading, stdout.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { runImportTools } from '@toolgate/sdk';

process.exitCode = await runImportTools({
  argv: process.argv.slice(2),
  env: process.env,
  load: (file) => tsImport(pathToFileURL(path.resolve(file)).href, import.meta.url) as Promise<Record<string, unknown>>,
  print: (line) => console.log(line),
});
