// npm start / npm run data-plane / npm run build: bundle the server (scripts/build-server.mjs, a
// fraction of a second) and run it in this process, with the command line as given (see
// scripts/start.ts; --build makes the app build npm start serves, then exits).
import { pathToFileURL } from 'node:url';
import { buildServer } from './build-server.mjs';

const entry = await buildServer();
// Stack traces in logs name the TypeScript sources, not bundle lines.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(entry).href);
