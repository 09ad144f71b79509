import { SEMVER_PATTERN } from '@toolgate/sdk/core';
import type { JsonObject } from '../../json';
import { ownValue } from '../../validation/json-path';
import type { ParsedDocument } from '../parse-document';
import type { Diagnostic, LintOptions } from '../types';
import { defineRule, type CodeInfo } from './registry';
import { isNewerVersion } from '../semver';

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
        // A version that is not one is the format rule's finding; a published one saved before
        // versions were checked exactly is still ordered (lib/lint/semver.ts), as publish orders it.
        SEMVER_PATTERN.test(version) &&
        !isNewerVersion(version, previous)
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
