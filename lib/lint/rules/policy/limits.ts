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
      summary: "Two limits share an id; a refusal's `limit_id` and the evidence name the limit by id.",
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
    limits.slice(0, 100).forEach((limit, index) => {
      if (!isPlainObject(limit)) return;
      const at: PathSegment[] = ['limits', index];
      const id = ownValue(limit, 'id');
      if (typeof id === 'string') {
        const first = ids.get(id);
        if (first === undefined) ids.set(id, index);
        else out.push(report('POLICY_LIMIT_ID_DUPLICATE', `Limit id ${quote(id)} is already used by limits[${first}].`, [...at, 'id']));
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
