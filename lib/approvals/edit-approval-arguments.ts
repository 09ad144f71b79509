import type { CompiledContract } from '../contracts/compile-contract';
import { hashCanonical } from '../contracts/canonical-json';
import { REDACTED } from '../evidence/redact-arguments';
import { checkPreCall, type CallContext } from '../validation/check-pre-call';
import { formatJsonPath, readDottedPath } from '../validation/json-path';
import { makeIssue, type ValidationIssue } from '../validation/error-codes';

export type EditOutcome = { ok: true; arguments: Record<string, unknown>; argsHash: string } | { ok: false; issues: ValidationIssue[] };

/**
 * Approve-with-edits: turns what an approver submitted into the arguments the token will be
 * bound to, or says why they cannot be.
 *
 * Sensitive fields: the queue shows the contract's `sensitive` paths (and the tenant's, passed
 * as `sensitivePaths`) as "[REDACTED]", so an
 * approver never sees those values. In an edit, a sensitive path still holding exactly that
 * marker keeps the agent's original value; any other value replaces it (the approver typed a
 * new one); a removed key stays removed. A marker left where the original call had no value
 * is refused, so the literal marker never becomes an argument.
 *
 * The contract check: the edited arguments go through the contract version's own
 * checkPreCall (input schema, scope, preconditions). The approval does not keep the agent's
 * call context, so the check reconstructs what it can: the user is the approval's, the tenant
 * is what the original arguments carried at the scope's tenant path (the original call passed
 * that check, or it would not be waiting for approval), the roles are the contract's required
 * roles (role checks do not depend on arguments). Conditions reading `context.state` cannot be
 * evaluated here and fail closed for the original arguments too; so an issue counts against
 * the edit only when the original arguments, checked the same way, did not have it. The
 * agent's retry with the edited arguments goes through validate/pre with its real context,
 * which checks everything again.
 */
export function prepareEditedArguments(options: {
  contract: CompiledContract;
  original: Record<string, unknown> | null;
  edited: Record<string, unknown>;
  userId: string | null;
  /** Every path the approver saw redacted; default: the contract's own. */
  sensitivePaths?: readonly string[];
}): EditOutcome {
  const { contract, original } = options;
  const intent = contract.document.id;
  const edited = JSON.parse(JSON.stringify(options.edited)) as Record<string, unknown>;
  const markerIssues: ValidationIssue[] = [];
  for (const path of options.sensitivePaths ?? contract.document.sensitive ?? []) {
    if (readDottedPath(edited, path) !== REDACTED) continue;
    const originalValue = original === null ? undefined : readDottedPath(original, path);
    if (originalValue === undefined) {
      markerIssues.push(
        makeIssue('AXAG_CONSTRAINT_VIOLATION', {
          intent,
          path: formatJsonPath(path.split('.')),
          message: `${path} holds the redaction marker but the original call has no value to keep there; enter a value or remove the key`,
        }),
      );
      continue;
    }
    writeDottedPath(edited, path, originalValue);
  }
  if (markerIssues.length > 0) return { ok: false, issues: markerIssues };

  const scopeTenant = contract.document.scope?.tenant;
  const tenantValue = scopeTenant && original ? readDottedPath(original, scopeTenant) : undefined;
  const context: CallContext = {
    ...(typeof tenantValue === 'string' ? { tenant_id: tenantValue } : {}),
    ...(options.userId !== null ? { user_id: options.userId } : {}),
    roles: [...(contract.document.annotations.required_roles ?? [])],
  };
  const key = (issue: ValidationIssue) => `${issue.code}\n${issue.path}\n${String(issue.details.condition_id ?? '')}`;
  const baseline = new Set(original ? checkPreCall({ contract, arguments: original, context }).errors.map(key) : []);
  const issues = checkPreCall({ contract, arguments: edited, context }).errors.filter((issue) => !baseline.has(key(issue)));
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, arguments: edited, argsHash: hashCanonical(edited) };
}

/** Sets an existing dotted path's value; keys are defined, never assigned (no prototype writes). */
function writeDottedPath(root: Record<string, unknown>, dotted: string, value: unknown): void {
  const segments = dotted.split('.');
  let node: unknown = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i] as string;
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, segment)) return;
    node = (node as Record<string, unknown>)[segment];
  }
  const last = segments[segments.length - 1] as string;
  if (typeof node !== 'object' || node === null) return;
  Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true });
}
