import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiAllowedMethods } from './api-methods';
import { allowedMethods } from './mount-route';

const apiRoot = path.join(import.meta.dirname, '..', '..', 'app', 'api');

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? routeFiles(full) : name === 'route.ts' ? [full] : [];
  });
}

describe('apiAllowedMethods', () => {
  it('names, for a path of every route file under app/api, the methods that file mounts', () => {
    const files = routeFiles(apiRoot);
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      const segments = path.relative(apiRoot, path.dirname(file)).split(path.sep);
      const urlPath = `/api/${segments.map((s) => (s === '[...all]' ? 'sign-in/email' : /^\[\w+\]$/.test(s) ? 'x1' : s)).join('/')}`;
      // `mountRoute({ GET: handler, POST: other })` (lib/api/mount-route.ts).
      const mounted = [...readFileSync(file, 'utf8').matchAll(/\b(GET|POST|PUT|PATCH|DELETE):/g)].map((m) => m[1] as string);
      expect(mounted.length, file).toBeGreaterThan(0);
      expect(apiAllowedMethods(urlPath), urlPath).toEqual(allowedMethods(mounted));
    }
  });

  it('prefers the static route where a dynamic one matches too, as Next does', () => {
    expect(apiAllowedMethods('/api/v1/invitations/accept')).toEqual(['POST', 'OPTIONS']);
    expect(apiAllowedMethods('/api/v1/invitations/inv_1')).toEqual(['DELETE', 'OPTIONS']);
    expect(apiAllowedMethods('/api/v1/contracts/import')).toEqual(['POST', 'OPTIONS']);
  });

  it('knows no route for other paths', () => {
    expect(apiAllowedMethods('/api/v1/nothing-here')).toBeNull();
    expect(apiAllowedMethods('/api/v1/members/a/b')).toBeNull();
    expect(apiAllowedMethods('/members')).toBeNull();
  });
});
