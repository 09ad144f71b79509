import { hasOwn, isPlainObject } from '../../../json';
import { ownValue } from '../../../validation/json-path';
import type { PathSegment } from '../../parse-document';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import { quote } from '../report';
import type { PolicyContext } from './context';

/** Limits the evidence and the approval queue could not tell apart or act on. */
export const limitsRule = defineRule({
  codes: {
    POLICY_LIMIT_ID_DUPLICATE: {
      severity: 'error',
      summary:
        "Two limits share an id, or a limit has a rule's id; a refusal's `limit_id` and the evidence name the deciding limit or rule by id.",
    },
    POLICY_LIMIT_NO_ROLES: {
      severity: 'error',
      summary: 'A limit with `when_exceeded: require_approval` names no `roles`, so nobody could approve a call past it.',
    },
  },
  check({ document }: PolicyContext, report) {
    const out: Diagnostic[] = [];
    const limits = ownValue(document, 'limits');
    if (!Array.isArray(limits)) return out;
    const ids = new Map<string, number>();
    const ruleIds = new Map<string, number>();
    const rules = ownValue(document, 'rules');
    if (Array.isArray(rules))
      rules.slice(0, 500).forEach((rule, index) => {
        const id = ownValue(rule, 'id');
        if (typeof id === 'string' && !ruleIds.has(id)) ruleIds.set(id, index);
      });
    limits.slice(0, 100).forEach((limit, index) => {
      if (!isPlainObject(limit)) return;
      const at: PathSegment[] = ['limits', index];
      const id = ownValue(limit, 'id');
      if (typeof id === 'string') {
        const first = ids.get(id);
        const rule = ruleIds.get(id);
        if (first !== undefined)
          out.push(report('POLICY_LIMIT_ID_DUPLICATE', `Limit id ${quote(id)} is already used by limits[${first}].`, [...at, 'id']));
        else if (rule !== undefined)
          out.push(
            report(
              'POLICY_LIMIT_ID_DUPLICATE',
              `Limit id ${quote(id)} is also the id of rules[${rule}]: the evidence could not tell which one decided.`,
              [...at, 'id'],
            ),
          );
        if (first === undefined) ids.set(id, index);
      }
      const roles = ownValue(limit, 'roles');
      if (ownValue(limit, 'when_exceeded') === 'require_approval' && (!Array.isArray(roles) || roles.length === 0)) {
        out.push(
          report(
            'POLICY_LIMIT_NO_ROLES',
            'A soft limit (`when_exceeded: require_approval`) must name the `roles` that may approve calls past it.',
            hasOwn(limit, 'roles') ? [...at, 'roles'] : [...at, 'when_exceeded'],
          ),
        );
      }
    });
    return out;
  },
});
