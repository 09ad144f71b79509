import { isPlainObject } from '../../../json';
import { ownValue } from '../../../validation/json-path';
import { caseFoldingCalls, caseFoldingMessage } from '../../case-folding';
import type { PathSegment } from '../../parse-document';
import { rangeInsideScalar } from '../../scalar-range';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import type { PolicyContext } from './context';

/** A rule's `when` that folds case with lowerAscii()/upperAscii() (lib/lint/case-folding.ts). */
export const policyCaseFoldingRule = defineRule({
  codes: {
    POLICY_CASE_FOLDING: {
      severity: 'warning',
      summary:
        'A rule\'s `when` calls `lowerAscii()` or `upperAscii()`, which in this CEL library also change non-ASCII letters (`"o\\u212A".lowerAscii() == "ok"` holds), so a look-alike of the word passes.',
    },
  },
  check({ parsed, document }: PolicyContext, report) {
    const out: Diagnostic[] = [];
    const rules = ownValue(document, 'rules');
    if (!Array.isArray(rules)) return out;
    rules.slice(0, 500).forEach((rule, index) => {
      const when = isPlainObject(rule) ? ownValue(rule, 'when') : undefined;
      if (typeof when !== 'string' || when.length > 2000) return;
      const at: PathSegment[] = ['rules', index, 'when'];
      for (const call of caseFoldingCalls(when)) {
        const diagnostic = report('POLICY_CASE_FOLDING', caseFoldingMessage(call.name), at);
        out.push({ ...diagnostic, range: rangeInsideScalar(parsed, diagnostic.range, when, call.start, call.end) });
      }
    });
    return out;
  },
});
