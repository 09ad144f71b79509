import { describe, expect, it } from 'vitest';
import { discoveryUrl, parseAllowedDomains, parseRoleMapping, parseSsoConfig, SsoConfigError, type SsoEnv } from './sso-config';

const base: SsoEnv = {
  TOOLGATE_OIDC_ISSUER: 'https://login.example.com/realms/acme',
  TOOLGATE_OIDC_CLIENT_ID: 'toolgate',
  TOOLGATE_OIDC_CLIENT_SECRET: 's3cret',
};

function refusal(vars: SsoEnv): string {
  try {
    parseSsoConfig(vars);
  } catch (error) {
    expect(error).toBeInstanceOf(SsoConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('parseSsoConfig', () => {
  it('is off (null) when none of issuer, client id and secret is set', () => {
    expect(parseSsoConfig({})).toBeNull();
    expect(parseSsoConfig({ TOOLGATE_OIDC_NAME: 'Okta', TOOLGATE_OIDC_ALLOWED_DOMAINS: '' })).toBeNull();
  });

  it('reads the three required settings and defaults the rest', () => {
    expect(parseSsoConfig(base)).toEqual({
      providerId: 'sso',
      name: 'SSO',
      issuer: 'https://login.example.com/realms/acme',
      clientId: 'toolgate',
      clientSecret: 's3cret',
      allowedDomains: [],
      groupsClaim: null,
      roleMapping: new Map(),
    });
  });

  it('names what is missing when only part of the required settings is given', () => {
    expect(refusal({ TOOLGATE_OIDC_ISSUER: base.TOOLGATE_OIDC_ISSUER })).toMatch(
      /missing TOOLGATE_OIDC_CLIENT_ID, TOOLGATE_OIDC_CLIENT_SECRET\.$/,
    );
    expect(refusal({ ...base, TOOLGATE_OIDC_CLIENT_SECRET: '' })).toMatch(/missing TOOLGATE_OIDC_CLIENT_SECRET\.$/);
  });

  it('refuses optional SSO settings while SSO is off, rather than ignore them', () => {
    expect(refusal({ TOOLGATE_OIDC_ALLOWED_DOMAINS: 'acme.com' })).toMatch(/SSO is off/);
    expect(refusal({ TOOLGATE_OIDC_ROLE_MAPPING: 'ops=admin' })).toMatch(/SSO is off/);
  });

  it('refuses an issuer with a query or that is not http(s)', () => {
    expect(refusal({ ...base, TOOLGATE_OIDC_ISSUER: 'https://login.example.com/?tenant=1' })).toMatch(/query or fragment/);
    expect(refusal({ ...base, TOOLGATE_OIDC_ISSUER: 'ftp://login.example.com' })).toMatch(/http\(s\)/);
    expect(refusal({ ...base, TOOLGATE_OIDC_ISSUER: 'login.example.com' })).toMatch(/not a URL/);
  });

  it('takes the button label and the groups mapping', () => {
    const config = parseSsoConfig({
      ...base,
      TOOLGATE_OIDC_NAME: ' Okta ',
      TOOLGATE_OIDC_GROUPS_CLAIM: 'groups',
      TOOLGATE_OIDC_ROLE_MAPPING: 'toolgate-admins=admin, reviewers=approver',
    });
    expect(config?.name).toBe('Okta');
    expect(config?.groupsClaim).toBe('groups');
    expect([...(config?.roleMapping ?? [])]).toEqual([
      ['toolgate-admins', 'admin'],
      ['reviewers', 'approver'],
    ]);
  });

  it('wants the groups claim and the mapping together', () => {
    expect(refusal({ ...base, TOOLGATE_OIDC_GROUPS_CLAIM: 'groups' })).toMatch(/GROUPS_CLAIM is set without TOOLGATE_OIDC_ROLE_MAPPING/);
    expect(refusal({ ...base, TOOLGATE_OIDC_ROLE_MAPPING: 'ops=admin' })).toMatch(/ROLE_MAPPING is set without TOOLGATE_OIDC_GROUPS_CLAIM/);
  });
});

describe('parseRoleMapping', () => {
  it('splits on the last "=", so group names may contain one', () => {
    expect([...parseRoleMapping('cn=ops=admin,viewers=viewer,')]).toEqual([
      ['cn=ops', 'admin'],
      ['viewers', 'viewer'],
    ]);
  });

  it('refuses a role that does not exist, naming the roles', () => {
    expect(() => parseRoleMapping('ops=owner')).toThrow(
      '"owner" (for group "ops") is not a role; roles are viewer, author, approver, admin.',
    );
    expect(() => parseRoleMapping('ops=Admin')).toThrow(SsoConfigError);
  });

  it('refuses entries that are not group=role', () => {
    for (const text of ['ops', '=admin', 'ops=', 'a=admin,b']) expect(() => parseRoleMapping(text), text).toThrow(/is not "group=role"/);
  });

  it('refuses one group mapped to two roles, and accepts the same pair twice', () => {
    expect(() => parseRoleMapping('ops=admin,ops=viewer')).toThrow('maps group "ops" to both admin and viewer');
    expect([...parseRoleMapping('ops=admin,ops=admin')]).toEqual([['ops', 'admin']]);
  });

  it('bounds the number of entries', () => {
    const many = Array.from({ length: 201 }, (_, i) => `g${i}=viewer`).join(',');
    expect(() => parseRoleMapping(many)).toThrow(/201 entries; at most 200/);
    expect(parseRoleMapping(many.split(',').slice(0, 200).join(',')).size).toBe(200);
  });
});

describe('parseAllowedDomains', () => {
  it('lower-cases, trims, drops a leading @ and duplicates', () => {
    expect(parseAllowedDomains(' Acme.com, @eu.acme.com ,acme.com,')).toEqual(['acme.com', 'eu.acme.com']);
    expect(parseAllowedDomains('')).toEqual([]);
  });

  it('refuses things that are not domain names', () => {
    for (const text of ['*.acme.com', 'https://acme.com', 'acme', 'ac me.com', 'user@acme.com']) {
      expect(() => parseAllowedDomains(text), text).toThrow(/is not a domain name/);
    }
  });
});

describe('discoveryUrl', () => {
  it('appends the well-known path to the issuer, with or without a trailing slash', () => {
    expect(discoveryUrl('https://acme.okta.com/oauth2/default')).toBe(
      'https://acme.okta.com/oauth2/default/.well-known/openid-configuration',
    );
    expect(discoveryUrl('https://accounts.google.com/')).toBe('https://accounts.google.com/.well-known/openid-configuration');
  });
});
