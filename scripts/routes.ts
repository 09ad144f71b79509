// npm run routes: writes Next's route files from the route table (lib/api/routes.ts) and removes
// generated ones whose template is gone. lib/api/openapi.test.ts fails when they are stale.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { API_ROUTES } from '../lib/api/routes';
import { GENERATED_ROUTE_HEADER, routeFiles } from '../lib/api/route-files';

const root = path.resolve(import.meta.dirname, '..');
const wanted = routeFiles(API_ROUTES.map((route) => route.path));
let written = 0;
for (const { file, content } of wanted) {
  const target = path.join(root, file);
  if (existsSync(target) && readFileSync(target, 'utf8') === content) continue;
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, content);
  written++;
}
const keep = new Set(wanted.map(({ file }) => path.join(root, file)));
let removed = 0;
const walk = (dir: string): void => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      walk(full);
      if (readdirSync(full).length === 0) rmSync(full, { recursive: true });
    } else if (entry.name === 'route.ts' && !keep.has(full) && readFileSync(full, 'utf8').startsWith(GENERATED_ROUTE_HEADER)) {
      rmSync(full);
      removed++;
    }
  }
};
walk(path.join(root, 'app', 'api', 'v1'));
console.log(`routes: ${wanted.length} route files, ${written} written, ${removed} removed`);
