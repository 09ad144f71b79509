import type { ASTNode } from '@marcbachmann/cel-js';
import { isPlainObject } from '../../../json';
import { formatJsonPath, ownValue } from '../../../validation/json-path';
import { argumentReferences, celEnvironment } from '../../cel-argument-references';
import { CONDITION_FIELDS } from '../../compiler-findings';
import type { ParsedDocument, PathSegment } from '../../parse-document';
import { argumentPathStatus } from '../../schema-declarations';
import type { Diagnostic, SourceRange } from '../../types';
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
    for (const field of CONDITION_FIELDS) {
      const conditions = ownValue(document, field);
      if (!Array.isArray(conditions)) continue;
      conditions.slice(0, 50).forEach((condition, index) => {
        const expression = ownValue(condition, 'expression');
        if (typeof expression !== 'string' || expression.length > 2000) return;
        let ast: ASTNode;
        try {
          ast = celEnvironment.parse(expression).ast;
        } catch {
          return; // reported as CONTRACT_EXPRESSION_INVALID
        }
        const at: PathSegment[] = [field, index, 'expression'];
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
      });
    }
    return out;
  },
});

/**
 * Narrows a scalar's range to characters `start..end` of its value, when the value is written
 * on one line verbatim (plain, or quoted without escapes); otherwise keeps the whole scalar.
 */
function rangeInsideScalar(parsed: ParsedDocument, range: SourceRange, value: string, start: number, end: number): SourceRange {
  if (range.startLine !== range.endLine) return range;
  const line = lineText(parsed.text, range.startLine);
  const source = line.slice(range.startColumn - 1, range.endColumn - 1);
  const offset = source === value ? 0 : source === `"${value}"` || source === `'${value}'` ? 1 : -1;
  if (offset < 0) return range;
  return {
    startLine: range.startLine,
    startColumn: range.startColumn + offset + start,
    endLine: range.startLine,
    endColumn: range.startColumn + offset + end,
  };
}

function lineText(text: string, line: number): string {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return '';
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '');
}
