import semver from 'semver';
import type { JsonObject } from '../../json';
import { ownValue } from '../../validation/json-path';
import type { ParsedDocument } from '../parse-document';
import type { Diagnostic, LintOptions } from '../types';
import { defineRule, type CodeInfo } from './registry';

/**
 * A version that does not go up. Contracts and policies are both published under immutable
 * semver versions, so one rule serves both kinds, under each kind's prefix.
 */
export function versionNotIncreasedRule<P extends 'CONTRACT' | 'POLICY'>(prefix: P) {
  const code: `${P}_VERSION_NOT_INCREASED` = `${prefix}_VERSION_NOT_INCREASED`;
  const codes = {
    [code]: { severity: 'error', summary: 'The version is not greater (by semver) than the latest published version.' },
  } as { readonly [K in typeof code]: CodeInfo };
  return defineRule({
    codes,
    check({ document, options }: { parsed: ParsedDocument; options: LintOptions; document: JsonObject }, report) {
      const out: Diagnostic[] = [];
      const version = ownValue(document, 'version');
      const previous = options.previousVersion;
      if (
        typeof version === 'string' &&
        previous !== undefined &&
        semver.valid(version) &&
        semver.valid(previous) &&
        !semver.gt(version, previous)
      ) {
        out.push(
          report(
            code,
            `Version ${version} is not greater than the published version ${previous}; published versions are immutable, so use a higher one.`,
            ['version'],
          ),
        );
      }
      return out;
    },
  });
}
