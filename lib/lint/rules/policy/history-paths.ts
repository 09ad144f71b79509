import { isPlainObject } from '../../../json';
import { toolPatternMatches } from '../../../policies/policy-schema';
import { ownValue } from '../../../validation/json-path';
import { policyWhenTexts } from '../../condition-texts';
import { historyCallsIn } from '../../history-calls';
import type { PathSegment } from '../../parse-document';
import { rangeInsideScalar } from '../../scalar-range';
import { argumentPathStatus, declaredTypesAt } from '../../schema-declarations';
import type { Diagnostic, SourceRange } from '../../types';
import { defineRule } from '../registry';
import { quote } from '../report';
import type { PolicyContext } from './context';

/**
 * Argument paths that history reads (a limit's `max_sum.path`, `history.sum` and
 * `history.called_with`) checked against the input schemas of the tenant's published
 * contracts for the tools counted. Warnings: a tool may be published later, or its calls may
 * be meant to add nothing. Silent without contracts (the CLI) and for tools no contract covers.
 */
export const historyPathsRule = defineRule({
  codes: {
    POLICY_HISTORY_UNKNOWN_PATH: {
      severity: 'warning',
      summary:
        "An argument path a limit's `max_sum` or a `history.sum` / `history.called_with` call reads is not in the input schema of the published contracts of its tools: their calls would add 0 or never match.",
    },
    POLICY_SUM_PATH_NOT_NUMERIC: {
      severity: 'warning',
      summary: 'A summed argument path (`max_sum.path`, `history.sum`) is declared with a type that is not a number: its calls add 0.',
    },
  },
  check({ parsed, document, options }: PolicyContext, report) {
    const out: Diagnostic[] = [];
    const inputs = [...contractInputs(options.contracts)];
    if (inputs.length === 0) return out;
    // Patterns repeat across limits and conditions; matching them is bounded so a document of
    // many distinct patterns against many contracts stays cheap (past it, patterns go unchecked).
    const matches = new Map<string, [string, unknown][]>();
    let budget = 2_000_000;
    const matching = (pattern: string): [string, unknown][] => {
      let found = matches.get(pattern);
      if (found) return found;
      if (budget < inputs.length) return [];
      budget -= inputs.length;
      found = inputs.filter(([id]) => toolPatternMatches(pattern, id));
      matches.set(pattern, found);
      return found;
    };

    const checkPath = (use: { summed: boolean; tools: readonly unknown[]; path: string }, at: PathSegment[], range?: SourceRange) => {
      const place = (d: Diagnostic) => (range ? { ...d, range } : d);
      const segments = use.path.split('.');
      const missing: string[] = [];
      const nonNumeric: { tool: string; types: string }[] = [];
      for (const pattern of use.tools) {
        if (typeof pattern !== 'string') continue;
        const matched = matching(pattern);
        if (matched.length === 0) continue;
        const declaring = matched.filter(([, input]) => argumentPathStatus(input, segments).declared);
        if (declaring.length === 0) missing.push(pattern.includes('*') ? `any contract matching ${pattern}` : `the contract of ${pattern}`);
        if (!use.summed) continue;
        for (const [id, input] of declaring) {
          const types = declaredTypesAt(input, segments);
          if (types && !types.has('number') && !types.has('integer')) nonNumeric.push({ tool: id, types: [...types].join(' or ') });
        }
      }
      const effect = use.summed ? 'their calls add 0 to the sum' : 'their calls never match (`called_with` compares the value there)';
      if (missing.length > 0) {
        out.push(
          place(report('POLICY_HISTORY_UNKNOWN_PATH', `${quote(use.path)} is not in the input schema of ${list(missing)}: ${effect}.`, at)),
        );
      }
      if (nonNumeric.length > 0) {
        const first = nonNumeric[0]!;
        const others = nonNumeric.length > 1 ? ` (and ${nonNumeric.length - 1} more contract${nonNumeric.length > 2 ? 's' : ''})` : '';
        out.push(
          place(
            report(
              'POLICY_SUM_PATH_NOT_NUMERIC',
              `${quote(use.path)} is declared as ${first.types} in the contract of ${first.tool}${others}: only numbers add to a sum, so its calls add 0.`,
              at,
            ),
          ),
        );
      }
    };

    const limits = ownValue(document, 'limits');
    if (Array.isArray(limits)) {
      limits.slice(0, 100).forEach((limit, index) => {
        const path = ownValue(ownValue(limit, 'max_sum'), 'path');
        const tools = ownValue(limit, 'tools');
        if (typeof path !== 'string' || path.length > 256 || !Array.isArray(tools)) return;
        checkPath({ summed: true, tools: tools.slice(0, 200), path }, ['limits', index, 'max_sum', 'path']);
      });
    }
    for (const { at, expression } of policyWhenTexts(document)) {
      for (const use of historyCallsIn(expression).paths) {
        const range = rangeInsideScalar(parsed, parsed.locate(at), expression, use.start, use.end);
        checkPath({ summed: use.fn === 'sum', tools: use.tools, path: use.path }, at, range);
      }
    }
    return out;
  },
});

/** Each published contract's input schema by tool id (the first of an id wins, as for surfaces). */
function contractInputs(contracts: readonly unknown[] | undefined): Map<string, unknown> {
  const inputs = new Map<string, unknown>();
  for (const contract of (contracts ?? []).slice(0, 10_000)) {
    const id = ownValue(contract, 'id');
    const input = ownValue(contract, 'input');
    if (typeof id === 'string' && isPlainObject(input) && !inputs.has(id)) inputs.set(id, input);
  }
  return inputs;
}

function list(items: readonly string[]): string {
  const shown = items.slice(0, 3);
  const rest = items.length - shown.length;
  const text = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : (shown[0] ?? '');
  return rest > 0 ? `${text} (and ${rest} more)` : text;
}
