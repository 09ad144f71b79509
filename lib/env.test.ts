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

  it('refuses a DATABASE_URL of a scheme it cannot use, naming the scheme and never the password', () => {
    for (const url of ['mysql://u:SuperSecretPw@localhost/db', 'postgress://u:SuperSecretPw@h/db', 'postgresql+x://u:SuperSecretPw@h/db']) {
      process.env.DATABASE_URL = url;
      resetEnvForTests();
      let message = '';
      try {
        env();
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, url).toMatch(/DATABASE_URL has the scheme "[^"]+:": use a file: path \(SQLite\) or a postgresql:\/\/ URL/);
      expect(message).not.toContain('SuperSecretPw');
    }
    for (const url of ['file:./data/x.db', 'file:///tmp/x.db', './data/x.db', 'postgresql://u@h/db', 'POSTGRES://u@h/db']) {
      process.env.DATABASE_URL = url;
      resetEnvForTests();
      expect(env().DATABASE_URL, url).toBe(url);
    }
  });
});
