// npm start / npm run data-plane / npm run build: run the server bundle (scripts/build-server.mjs)
// in this process, with the command line as given (see scripts/start.ts; --build makes the
// server bundle and the app build that npm start serves, then exits). A start bundles only when
// `npm run build` has not made the bundle for the current sources (a fraction of a second).
import { pathToFileURL } from 'node:url';
import { buildServer, currentServer } from './build-server.mjs';

const building = process.argv.includes('--build');
// Quietly: bundling takes a fraction of a second, and a start's output is for the operator.
const entry = (building ? null : currentServer()) ?? (await buildServer());
// Stack traces in logs name the TypeScript sources, not bundle lines.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(entry).href);
