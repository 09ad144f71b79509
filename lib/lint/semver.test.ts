import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SEMVER_MESSAGE, SEMVER_PATTERN } from '@toolgate/sdk/core';
import { compareVersions, isNewerVersion, schemaIssueMessage } from './semver';

describe('SEMVER_PATTERN', () => {
  it.each(['0.0.0', '1.2.3', '1.0.0-0', '1.0.0-rc.1', '1.0.0-0a', '1.0.0--', '1.0.0-x-y.0.z', '999999999999999.0.0'])(
    'accepts %s',
    (version) => expect(SEMVER_PATTERN.test(version)).toBe(true),
  );

  it.each([
    '1.0.0-01',
    '1.0.0-00',
    '01.0.0',
    '1.01.0',
    '1.0.01',
    '1.0.0-1.02',
    '1.0.0-',
    '1.0.0-a..b',
    '1.0.0+build',
    '1.0.0-rc.1+build',
    '1.0',
    'v1.0.0',
    '1000000000000000.0.0',
  ])('refuses %s', (version) => expect(SEMVER_PATTERN.test(version)).toBe(false));
});

describe('compareVersions', () => {
  it('orders versions as semver does', () => {
    expect(isNewerVersion('2.0.0', '1.0.0')).toBe(true);
    expect(isNewerVersion('1.0.0', '1.0.0-rc.1')).toBe(true);
    expect(isNewerVersion('1.0.0-rc.10', '1.0.0-rc.9')).toBe(true);
    expect(isNewerVersion('1.0.0', '1.0.0')).toBe(false);
    expect(isNewerVersion('0.9.0', '1.0.0')).toBe(false);
  });

  it('compares numeric pre-release identifiers exactly past 2^53, as SemVer 2.0.0 says (semver rounds them to doubles)', () => {
    expect(isNewerVersion('1.0.0-100000000000000000000', '1.0.0-99999999999999999999')).toBe(true);
    expect(isNewerVersion('1.0.0-99999999999999999999', '1.0.0-100000000000000000000')).toBe(false);
    expect(compareVersions('1.0.0-rc.9007199254740993', '1.0.0-rc.9007199254740992')).toBe(1);
    expect(compareVersions('1.0.0-rc.9007199254740993', '1.0.0-rc.9007199254740993')).toBe(0);
    // The rest of §11 as before: numeric before alphanumeric, ASCII order, more fields after fewer.
    expect(isNewerVersion('1.0.0-alpha', '1.0.0-99999999999999999999')).toBe(true);
    expect(isNewerVersion('1.0.0-beta', '1.0.0-alpha.1')).toBe(true);
    expect(isNewerVersion('1.0.0-alpha.1', '1.0.0-alpha')).toBe(true);
    expect(isNewerVersion('1.0.0-rc.1', '1.0.0-alpha.beta')).toBe(true);
  });

  it('reads a stored version SemVer 2.0.0 refuses loosely, and one it cannot read at all as the lowest, without throwing', () => {
    expect(isNewerVersion('2.0.0', '1.0.0-01')).toBe(true);
    expect(isNewerVersion('1.0.0-01', '2.0.0')).toBe(false);
    expect(isNewerVersion('1.0.0-2', '1.0.0-01')).toBe(true);
    expect(compareVersions('1.0.0-01', '1.0.0-1')).toBe(0);
    expect(isNewerVersion('0.0.1', 'not a version')).toBe(true);
    expect(isNewerVersion('not a version', '0.0.1')).toBe(false);
    expect(isNewerVersion('1.0.0', '99999999999999999.0.0')).toBe(true);
    expect(compareVersions('garbage', 'also garbage')).toBe(0);
  });
});

describe('schemaIssueMessage', () => {
  it('tells a version that is not one what a version looks like, and leaves other patterns alone', () => {
    const [version] = z.string().regex(SEMVER_PATTERN).safeParse('1.0.0-01').error!.issues;
    expect(schemaIssueMessage(version!)).toBe(SEMVER_MESSAGE);
    const [other] = z.string().regex(/^a$/).safeParse('b').error!.issues;
    expect(schemaIssueMessage(other!)).toBe(other!.message);
  });
});
