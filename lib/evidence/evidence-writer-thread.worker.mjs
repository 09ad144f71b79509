// Worker threads do not inherit tsx's loader on Node 20 (a `--import tsx` in execArgv runs, but
// the worker's own entry is resolved without it), so the TypeScript entry is loaded through
// tsx's API.
import { tsImport } from 'tsx/esm/api';

await tsImport('./evidence-writer-thread.worker.ts', import.meta.url);
