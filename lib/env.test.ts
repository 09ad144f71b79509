import { afterEach, describe, expect, it } from 'vitest';
import { env, resetEnvForTests, unknownSettingWarnings } from './env';

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

  it('refuses durations past what the code can hold: a TTL past 30 days, a timer past 2^31 ms', () => {
    const refused: [string, string][] = [
      ['TOOLGATE_APPROVAL_TTL_SECONDS', '99999999999999'],
      ['TOOLGATE_CONFIRMATION_TTL_SECONDS', String(31 * 86_400)],
      ['TOOLGATE_DUPLICATE_WINDOW_SECONDS', '1e12'],
      ['TOOLGATE_RETENTION_PURGE_INTERVAL_SECONDS', '3000000'],
      ['TOOLGATE_CACHE_POLL_MS', '1e10'],
      ['TOOLGATE_CACHE_POLL_MS', 'abc'],
      ['TOOLGATE_CACHE_POLL_MS', '-5'],
    ];
    for (const [name, value] of refused) {
      process.env[name] = value;
      resetEnvForTests();
      expect(() => env(), `${name}=${value}`).toThrow(new RegExp(name));
      delete process.env[name];
    }
    process.env.TOOLGATE_APPROVAL_TTL_SECONDS = String(30 * 86_400);
    process.env.TOOLGATE_CACHE_POLL_MS = '0';
    resetEnvForTests();
    expect(env()).toMatchObject({ TOOLGATE_APPROVAL_TTL_SECONDS: 30 * 86_400, TOOLGATE_CACHE_POLL_MS: 0 });
  });

  it('reads numbers as decimals only, and addresses as http(s) only', () => {
    const refused: [string, string, string][] = [
      ['PORT', '0x10', 'PORT: must be a decimal number, as 3000 or 2.5'],
      ['PORT', '1e3', 'PORT: must be a decimal number, as 3000 or 2.5'],
      ['PORT', 'Infinity', 'PORT: must be a decimal number, as 3000 or 2.5'],
      ['TOOLGATE_DRAIN_GRACE_SECONDS', '0b11', 'TOOLGATE_DRAIN_GRACE_SECONDS: must be a decimal number'],
      ['PORT', '3000.5', 'PORT: must be a whole number'],
      ['OTEL_EXPORTER_OTLP_ENDPOINT', 'localhost:4318', 'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http:// or https:// URL'],
      ['TOOLGATE_PUBLIC_URL', 'javascript:alert(1)', 'TOOLGATE_PUBLIC_URL: must be an http:// or https:// URL'],
    ];
    for (const [name, value, message] of refused) {
      process.env[name] = value;
      resetEnvForTests();
      expect(() => env(), `${name}=${value}`).toThrow(message);
      delete process.env[name];
    }
    Object.assign(process.env, {
      PORT: ' 3001 ',
      TOOLGATE_DRAIN_GRACE_SECONDS: '2.5',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector:4318',
    });
    resetEnvForTests();
    expect(env()).toMatchObject({ PORT: 3001, TOOLGATE_DRAIN_GRACE_SECONDS: 2.5, OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector:4318' });
  });

  it('refuses a DATABASE_URL of a scheme it cannot use, naming the scheme and never the password', () => {
    for (const url of [
      'mysql://u:SuperSecretPw@localhost/db',
      'postgress://u:SuperSecretPw@h/db',
      'postgresql+x://u:SuperSecretPw@h/db',
      'postgresql:/SuperSecretPw-host',
      'sqlite:./SuperSecretPw.db',
    ]) {
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
    process.env.DATABASE_URL = 'file:/tmp/x.db?mode=ro';
    resetEnvForTests();
    expect(() => env()).toThrow('DATABASE_URL names an SQLite file with a query');
    for (const url of ['file:./data/x.db', 'file:///tmp/x.db', './data/x.db', 'C:/data/x.db', 'postgresql://u@h/db', 'POSTGRES://u@h/db']) {
      process.env.DATABASE_URL = url;
      resetEnvForTests();
      expect(env().DATABASE_URL, url).toBe(url);
    }
  });
});

describe('unknownSettingWarnings', () => {
  it('names each TOOLGATE_* variable Toolgate does not read, with the setting a typo was meant to be', () => {
    expect(
      unknownSettingWarnings({
        TOOLGATE_TRUSTED_PROXY: '10.0.0.0/8',
        TOOLGATE_SECERT: 'x'.repeat(40),
        TOOLGATE_FROBNICATE: '1',
        TOOLGATE_TRUSTED_PROXIES: '10.0.0.0/8',
        TOOLGATE_URL: 'https://toolgate.example.com',
        PORT: '3000',
        TRUSTED_PROXIES: 'not ours',
      }),
    ).toEqual([
      'TOOLGATE_FROBNICATE is not a Toolgate setting and is ignored',
      'TOOLGATE_SECERT is not a Toolgate setting and is ignored (did you mean TOOLGATE_SECRET?)',
      'TOOLGATE_TRUSTED_PROXY is not a Toolgate setting and is ignored (did you mean TOOLGATE_TRUSTED_PROXIES?)',
    ]);
  });

  it('is silent for every setting the configuration reads and the names the CLI and harnesses read', () => {
    const known = Object.fromEntries(
      [
        'TOOLGATE_SECRET',
        'TOOLGATE_PUBLIC_URL',
        'TOOLGATE_OIDC_ROLE_MAPPING',
        'TOOLGATE_INIT_API_KEY',
        'TOOLGATE_METRICS_TOKEN',
        'TOOLGATE_API_KEY',
        'TOOLGATE_DIST_DIR',
        'TOOLGATE_LOG',
      ].map((name) => [name, 'x']),
    );
    expect(unknownSettingWarnings(known)).toEqual([]);
  });

  it('shows a name with control characters escaped, and guesses nothing for a very long one', () => {
    const long = `TOOLGATE_${'A'.repeat(5000)}`;
    const [longOne, newline] = unknownSettingWarnings({ 'TOOLGATE_X\nFAKE LOG LINE': '1', [long]: '1' });
    expect(newline).toBe('TOOLGATE_X\\nFAKE LOG LINE is not a Toolgate setting and is ignored');
    expect(longOne).toBe(`TOOLGATE_${'A'.repeat(91)}… is not a Toolgate setting and is ignored`);
  });
});
