import { caseFoldingCalls, caseFoldingMessage } from '../../case-folding';
import { contractConditionTexts } from '../../condition-texts';
import { rangeInsideScalar } from '../../scalar-range';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import type { ContractContext } from './context';

/** A pre/postcondition that folds case with lowerAscii()/upperAscii() (lib/lint/case-folding.ts). */
export const contractCaseFoldingRule = defineRule({
  codes: {
    CONTRACT_CASE_FOLDING: {
      severity: 'warning',
      summary:
        'A pre/postcondition calls `lowerAscii()` or `upperAscii()`, which in this CEL library also change non-ASCII letters (`"o\\u212A".lowerAscii() == "ok"` holds), so a look-alike of the word passes.',
    },
  },
  check({ parsed, document }: ContractContext, report) {
    const out: Diagnostic[] = [];
    for (const { at, expression } of contractConditionTexts(document)) {
      for (const call of caseFoldingCalls(expression)) {
        const diagnostic = report('CONTRACT_CASE_FOLDING', caseFoldingMessage(call.name), at);
        out.push({ ...diagnostic, range: rangeInsideScalar(parsed, diagnostic.range, expression, call.start, call.end) });
      }
    }
    return out;
  },
});
