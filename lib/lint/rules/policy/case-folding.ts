import { caseFoldingCalls, caseFoldingMessage } from '../../case-folding';
import { policyWhenTexts } from '../../condition-texts';
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
    for (const { at, expression } of policyWhenTexts(document)) {
      for (const call of caseFoldingCalls(expression)) {
        const diagnostic = report('POLICY_CASE_FOLDING', caseFoldingMessage(call.name), at);
        out.push({ ...diagnostic, range: rangeInsideScalar(parsed, diagnostic.range, expression, call.start, call.end) });
      }
    }
    return out;
  },
});
