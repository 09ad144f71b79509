import { describe, expect, it } from 'vitest';
import { createRouteMatcher, templateParams } from './match-route';

const routes = [
  { method: 'GET', path: '/api/v1/invitations/{id}' },
  { method: 'DELETE', path: '/api/v1/invitations/{id}' },
  { method: 'POST', path: '/api/v1/invitations/accept' },
  { method: 'GET', path: '/api/v1/contracts/{id}/versions/{version}' },
  { method: 'POST', path: '/api/v1/contracts/import' },
  { method: 'GET', path: '/api/v1/schemas/policy.json' },
] as const;
const match = createRouteMatcher(routes);

describe('createRouteMatcher', () => {
  it('finds the routes of the template a path matches, by method, with the Allow of the template', () => {
    const found = match('/api/v1/invitations/inv_1');
    expect(found?.group.path).toBe('/api/v1/invitations/{id}');
    expect([...(found?.group.routes.keys() ?? [])]).toEqual(['GET', 'DELETE']);
    expect(found?.group.allowed).toEqual(['GET', 'HEAD', 'DELETE', 'OPTIONS']);
    expect(found?.params).toEqual({ id: 'inv_1' });
    expect(match('/api/v1/schemas/policy.json')?.group.path).toBe('/api/v1/schemas/policy.json');
  });

  it('prefers a static segment to a parameter, as Next does, and falls back to the parameter', () => {
    expect(match('/api/v1/invitations/accept')?.group.path).toBe('/api/v1/invitations/accept');
    expect(match('/api/v1/contracts/import')?.group.path).toBe('/api/v1/contracts/import');
    // `import` is static one level down only: here it stands for a contract id.
    expect(match('/api/v1/contracts/import/versions/1.0.0')).toMatchObject({
      group: { path: '/api/v1/contracts/{id}/versions/{version}' },
      params: { id: 'import', version: '1.0.0' },
    });
  });

  it('decodes parameters as Next does, and matches nothing it cannot decode', () => {
    expect(match('/api/v1/contracts/orders.lookup/versions/1.0.0%2Bbuild')?.params).toEqual({
      id: 'orders.lookup',
      version: '1.0.0+build',
    });
    expect(match('/api/v1/invitations/a%2Fb')?.params).toEqual({ id: 'a/b' });
    expect(match('/api/v1/invitations/%E0%A4%A')).toBeNull();
  });

  it('matches no other path: empty segments, a trailing slash, more or fewer segments, no leading slash', () => {
    for (const pathname of [
      '/api/v1/invitations/',
      '/api/v1/invitations//',
      '/api/v1/invitations',
      '/api/v1/invitations/a/b',
      '/api//v1/invitations/a',
      'api/v1/invitations/a',
      '',
      '/',
    ]) {
      expect(match(pathname), pathname).toBeNull();
    }
  });

  it('refuses a table that declares a method twice or names one path parameter twice', () => {
    expect(() => createRouteMatcher([...routes, { method: 'GET', path: '/api/v1/invitations/{id}' }])).toThrow(/declared twice/);
    expect(() => createRouteMatcher([...routes, { method: 'PATCH', path: '/api/v1/invitations/{code}' }])).toThrow(
      /name their parameters differently/,
    );
  });
});

describe('templateParams', () => {
  it('names the parameters of a template in order', () => {
    expect(templateParams('/api/v1/contracts/{id}/versions/{version}/export')).toEqual(['id', 'version']);
    expect(templateParams('/api/v1/contracts')).toEqual([]);
  });
});
