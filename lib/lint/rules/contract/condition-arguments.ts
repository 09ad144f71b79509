import type { ASTNode } from '@marcbachmann/cel-js';
import { isPlainObject } from '../../../json';
import { formatJsonPath, ownValue } from '../../../validation/json-path';
import { argumentReferences, celEnvironment } from '../../cel-argument-references';
import { contractConditionTexts } from '../../condition-texts';
import { rangeInsideScalar } from '../../scalar-range';
import { argumentPathStatus } from '../../schema-declarations';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import { fieldName } from '../report';
import type { ContractContext } from './context';

/** Conditions that read `args.…` paths the input schema does not declare. */
export const conditionArgumentsRule = defineRule({
  codes: {
    CONTRACT_CONDITION_UNKNOWN_ARGUMENT: {
      severity: 'error',
      summary:
        'A pre/postcondition reads an `args.…` path the input schema does not declare; conditions fail closed, so it would refuse every call that omits it.',
    },
  },
  check({ parsed, document }: ContractContext, report) {
    const out: Diagnostic[] = [];
    const input = ownValue(document, 'input');
    if (!isPlainObject(input)) return out;
    for (const { at, expression } of contractConditionTexts(document)) {
      let ast: ASTNode;
      try {
        ast = celEnvironment.parse(expression).ast;
      } catch {
        continue; // reported as CONTRACT_EXPRESSION_INVALID
      }
      for (const reference of argumentReferences(ast)) {
        const status = argumentPathStatus(input, reference.path);
        if (status.declared) continue;
        const unknown = reference.path.slice(0, status.depth + 1);
        const diagnostic = report(
          'CONTRACT_CONDITION_UNKNOWN_ARGUMENT',
          `${fieldName(at)} reads args${formatJsonPath(unknown).slice(1)}, which the input schema does not declare (conditions fail closed: calls without it are refused).`,
          at,
        );
        out.push({ ...diagnostic, range: rangeInsideScalar(parsed, diagnostic.range, expression, reference.start, reference.end) });
      }
    }
    return out;
  },
});
