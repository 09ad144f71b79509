import type { CompiledContract } from '@/lib/contracts/compile-contract';
import { evaluateConditions, type CallContext, type CheckResult } from './check-pre-call';
import { MAX_ISSUES_PER_CHECK } from './ajv-issues';
import { makeIssue, type ValidationIssue } from './error-codes';

export type CheckPostCallOptions = {
  contract: CompiledContract;
  arguments: unknown;
  context: CallContext;
  /** The tool's successful result; omit when the tool failed. */
  result?: unknown;
  /** The tool's error payload; omit when the tool succeeded. */
  error?: unknown;
  /** Side effects the caller reports as having happened. */
  side_effects?: { id: string }[];
};

export function checkPostCall(options: CheckPostCallOptions): CheckResult {
  const { contract, arguments: args, context } = options;
  const intent = contract.document.id;
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  const hasResult = options.result !== undefined;

  if (hasResult) {
    const outputIssues = contract.checkOutput(options.result);
    errors.push(...outputIssues);
    // Mirrors the pre-call rule: conditions read fields the output schema promises, so on a
    // malformed result they would fail for the wrong reason.
    if (outputIssues.length === 0 && options.error === undefined) {
      errors.push(
        ...evaluateConditions(contract.postconditions, { args, context, result: options.result }, 'AXAG_POSTCONDITION_FAILED', intent),
      );
    }
  }
  if (options.error !== undefined) {
    errors.push(...contract.checkErrorPayload(options.error));
  }

  const declared = contract.document.side_effects ?? [];
  const reported = new Set((options.side_effects ?? []).map((effect) => effect.id));
  if (hasResult) {
    for (const effect of declared) {
      if (effect.required === true && !reported.has(effect.id)) {
        errors.push(
          makeIssue('AXAG_SIDE_EFFECT_MISSING', {
            intent,
            message: `Required side effect "${effect.id}" (${effect.description}) was not reported`,
            side_effect: effect.id,
          }),
        );
      }
    }
  }
  const declaredIds = new Set(declared.map((effect) => effect.id));
  for (const id of reported) {
    if (warnings.length >= MAX_ISSUES_PER_CHECK) break;
    if (!declaredIds.has(id)) {
      warnings.push(
        makeIssue('AXAG_SIDE_EFFECT_UNDECLARED', {
          intent,
          message: `Reported side effect "${id.slice(0, 100)}" is not declared in the contract`,
          side_effect: id.slice(0, 100),
        }),
      );
    }
  }
  return { errors, warnings };
}
