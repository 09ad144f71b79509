import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiAllowedMethods } from './api-methods';
import { allowedMethods } from './http-methods';
import { API_ROUTES } from './routes';

const betterAuthRoute = path.join(import.meta.dirname, '..', '..', 'app', 'api', 'auth', '[...all]', 'route.ts');

describe('apiAllowedMethods', () => {
  it('names, for a path of every template in the route table, the methods the table declares for it', () => {
    const templates = new Set(API_ROUTES.map((route) => route.path));
    expect(templates.size).toBeGreaterThan(40);
    for (const template of templates) {
      const urlPath = template.replace(/\{\w+\}/g, 'x1');
      expect(apiAllowedMethods(urlPath), urlPath).toEqual(
        allowedMethods(API_ROUTES.filter((route) => route.path === template).map((route) => route.method)),
      );
    }
  });

  it("names, for Better Auth's paths, the methods its route file mounts", () => {
    // `mountRoute({ GET: handler, POST: other })` (lib/api/mount-route.ts).
    const mounted = [...readFileSync(betterAuthRoute, 'utf8').matchAll(/\b(GET|POST|PUT|PATCH|DELETE):/g)].map((m) => m[1] as string);
    expect(mounted.length).toBeGreaterThan(0);
    expect(apiAllowedMethods('/api/auth/sign-in/email')).toEqual(allowedMethods(mounted));
    expect(apiAllowedMethods('/api/auth/')).toBeNull();
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
