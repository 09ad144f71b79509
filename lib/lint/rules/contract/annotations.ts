import { hasOwn, isPlainObject } from '../../../json';
import { ownValue } from '../../../validation/json-path';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import type { ContractContext } from './context';

/** Annotations that promise what the contract cannot keep: approvals nobody can give, repeats nobody recognises. */
export const annotationsRule = defineRule({
  codes: {
    CONTRACT_APPROVAL_NO_ROLES: {
      severity: 'error',
      summary: '`approval_required` is true but `approver_roles` is empty: nobody could ever approve a call.',
    },
    CONTRACT_IDEMPOTENCY_STRATEGY_MISSING: {
      severity: 'warning',
      summary:
        "An `external` or `destructive` tool claims `idempotent: true` without an `idempotency_strategy`; duplicate-call warnings are then skipped on the author's word alone.",
    },
  },
  check({ document }: ContractContext, report) {
    const out: Diagnostic[] = [];
    const annotations = ownValue(document, 'annotations');
    if (!isPlainObject(annotations)) return out;
    const roles = ownValue(annotations, 'approver_roles');
    if (ownValue(annotations, 'approval_required') === true && !(Array.isArray(roles) && roles.length > 0)) {
      out.push(
        report(
          'CONTRACT_APPROVAL_NO_ROLES',
          '`approval_required` is true but `approver_roles` is empty: nobody could approve a call. Name at least one role.',
          hasOwn(annotations, 'approver_roles') ? ['annotations', 'approver_roles'] : ['annotations', 'approval_required'],
          hasOwn(annotations, 'approver_roles') ? 'value' : 'key',
        ),
      );
    }
    const level = ownValue(annotations, 'side_effect_level');
    if (
      (level === 'external' || level === 'destructive') &&
      ownValue(annotations, 'idempotent') === true &&
      ownValue(annotations, 'idempotency_strategy') === undefined
    ) {
      out.push(
        report(
          'CONTRACT_IDEMPOTENCY_STRATEGY_MISSING',
          `${level === 'external' ? 'An' : 'A'} ${level} tool marked \`idempotent: true\` should say how repeats are recognised: set \`idempotency_strategy\` to \`key\` or \`natural\`.`,
          ['annotations', 'idempotent'],
        ),
      );
    }
    return out;
  },
});
