import type { CompiledContract } from '@/lib/contracts/compile-contract';
import type { CompiledCondition } from '@/lib/contracts/compile-conditions';
import { createCostMeter, type CostMeter } from '@/lib/contracts/condition-cost';
import { makeIssue, type ValidationIssue } from './error-codes';
import { formatJsonPath, readDottedPath } from './json-path';

/** Who is calling, as established by the server (never taken from the model's arguments). */
export type CallContext = {
  tenant_id?: string;
  user_id?: string;
  session_id?: string;
  roles?: string[];
  state?: Record<string, unknown>;
};

export type CheckResult = { errors: ValidationIssue[]; warnings: ValidationIssue[] };

export type CheckPreCallOptions = {
  contract: CompiledContract;
  arguments: unknown;
  context: CallContext;
  /** The step budget the conditions share (a test run's); by default one for this call's. */
  meter?: CostMeter;
  /** The step budget of the schema check (schema-cost.ts), when not `meter`. */
  schemaMeter?: CostMeter;
};

/**
 * Evaluates conditions and fails closed: a condition that cannot be evaluated (missing key,
 * type error) is treated as not holding, because "could not check" must never mean "allowed".
 */
export function evaluateConditions(
  conditions: readonly CompiledCondition[],
  activation: Record<string, unknown>,
  code: 'AXAG_PRECONDITION_FAILED' | 'AXAG_POSTCONDITION_FAILED',
  intent: string,
  // One budget for all of a call's conditions: a contract of many costly ones is bounded too.
  meter: CostMeter = createCostMeter(),
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const detailKey = code === 'AXAG_PRECONDITION_FAILED' ? 'failed_precondition' : 'failed_postcondition';
  for (const condition of conditions) {
    const outcome = condition.evaluate(activation, meter);
    if (outcome.ok && outcome.holds) continue;
    const prefix = code === 'AXAG_PRECONDITION_FAILED' ? 'Precondition not met' : 'Postcondition not met';
    issues.push(
      makeIssue(code, {
        intent,
        message: `${prefix}: ${condition.message}`,
        suggestion: condition.suggestion,
        [detailKey]: condition.message,
        condition_id: condition.id,
        ...(outcome.ok ? {} : { evaluation_error: outcome.error }),
      }),
    );
  }
  return issues;
}

function scopePath(dotted: string): string {
  return formatJsonPath(dotted.split('.'));
}

export function checkPreCall({ contract, arguments: args, context, meter, schemaMeter }: CheckPreCallOptions): CheckResult {
  const document = contract.document;
  const intent = document.id;
  const warnings: ValidationIssue[] = [];

  // In the order docs/runtime-api.md gives (the AXAG seed's pre-execution checks, then its
  // execution-time ones): the arguments, the preconditions, the tenant and user scope, the
  // roles. The first error is the answer's primary `error`.
  // checkInput returns a new array on every call: it becomes this check's list of errors.
  // A caller's budget (a test run's) is charged by the schema's costly keywords too.
  const errors = contract.checkInput(args, schemaMeter ?? meter);
  const argumentsValid = errors.length === 0;

  // Preconditions assume well-typed arguments; on invalid input they would only add noise.
  if (argumentsValid && contract.preconditions.length > 0) {
    errors.push(...evaluateConditions(contract.preconditions, { args, context }, 'AXAG_PRECONDITION_FAILED', intent, meter));
  }

  // Scope is checked even when the arguments are otherwise invalid: a cross-tenant attempt
  // is worth reporting on its own.
  const tenantPath = document.scope?.tenant;
  if (tenantPath !== undefined) {
    const value = readDottedPath(args, tenantPath);
    if (context.tenant_id === undefined || value !== context.tenant_id) {
      errors.push(
        makeIssue('AXAG_TENANT_BOUNDARY', {
          intent,
          path: scopePath(tenantPath),
          message:
            context.tenant_id === undefined
              ? `${tenantPath} cannot be checked: the call has no tenant context`
              : `${tenantPath} does not match the caller's tenant`,
          constraint: { scope: 'tenant', argument_path: tenantPath },
        }),
      );
    }
  }
  const userPath = document.scope?.user;
  if (userPath !== undefined) {
    const value = readDottedPath(args, userPath);
    if (context.user_id === undefined || value !== context.user_id) {
      errors.push(
        makeIssue('AXAG_SCOPE_VIOLATION', {
          intent,
          path: scopePath(userPath),
          message:
            context.user_id === undefined
              ? `${userPath} cannot be checked: the call has no user context`
              : `${userPath} does not match the calling user`,
          constraint: { scope: 'user', argument_path: userPath },
        }),
      );
    }
  }

  const required = document.annotations.required_roles;
  const roles = context.roles;
  if (required !== undefined && required.length > 0 && !required.some((role) => roles?.includes(role) === true)) {
    errors.push(
      makeIssue('AXAG_ROLE_INSUFFICIENT', {
        intent,
        message: `Calling ${intent} requires one of the roles ${required.join(', ')}`,
        constraint: { required_roles: required },
      }),
    );
  }

  const deprecated = document.deprecated;
  if (deprecated !== undefined && deprecated !== false) {
    const info = typeof deprecated === 'object' ? deprecated : undefined;
    warnings.push(
      makeIssue('AXAG_CONTRACT_DEPRECATED', {
        intent,
        message: `${intent} is deprecated${info ? `: ${info.message}` : ''}`,
        ...(info?.replacement ? { replacement: info.replacement, suggestion: `Call ${info.replacement} instead.` } : {}),
      }),
    );
  }
  return { errors, warnings };
}
