import { afterEach, describe, expect, it } from 'vitest';
import { env, resetEnvForTests } from './env';

const saved = { ...process.env };

afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  resetEnvForTests();
});

describe('env', () => {
  it('reads a setting left empty (NAME=) as unset, so defaults apply and nothing is half-configured', () => {
    process.env.TOOLGATE_OIDC_ISSUER = '';
    process.env.TOOLGATE_OIDC_CLIENT_ID = '  ';
    process.env.PORT = '';
    resetEnvForTests();
    const e = env();
    expect(e.TOOLGATE_OIDC_ISSUER).toBeUndefined();
    expect(e.TOOLGATE_OIDC_CLIENT_ID).toBeUndefined();
    expect(e.PORT).toBe(3000);
  });

  it('still refuses a bad value with a message naming the variable', () => {
    process.env.TOOLGATE_OIDC_ISSUER = 'not a url';
    resetEnvForTests();
    expect(() => env()).toThrow(/TOOLGATE_OIDC_ISSUER/);
  });
});
