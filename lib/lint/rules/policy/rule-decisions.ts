import { compileCondition } from '../../../contracts/compile-conditions';
import { hasOwn, isPlainObject } from '../../../json';
import { ownValue } from '../../../validation/json-path';
import { historyCallsIn } from '../../history-calls';
import type { PathSegment } from '../../parse-document';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import { quote } from '../report';
import type { PolicyContext } from './context';

/** Each rule on its own: an id evidence can name, a condition that compiles, a decision it can carry out. */
export const ruleDecisionsRule = defineRule({
  codes: {
    POLICY_CONDITION_INVALID: {
      severity: 'error',
      summary:
        "A rule's `when` is not valid CEL, is not boolean, uses variables other than `args`, `context` and `history`, or uses a refused function.",
    },
    POLICY_RULE_ID_DUPLICATE: { severity: 'error', summary: 'Two rules share an id; evidence names the deciding rule by id.' },
    POLICY_RULE_NO_ROLES: {
      severity: 'error',
      summary: 'A `require_approval` or `escalate` rule names no `roles`, so nobody could decide.',
    },
    POLICY_TRANSFORM_WITHOUT_SET: { severity: 'error', summary: 'A `transform` rule has no `set`, so it would change nothing.' },
    POLICY_SET_WITHOUT_TRANSFORM: { severity: 'warning', summary: '`set` on a rule whose decision is not `transform` is ignored.' },
  },
  check({ document }: PolicyContext, report) {
    const out: Diagnostic[] = [];
    const rules = ownValue(document, 'rules');
    if (!Array.isArray(rules)) return out;
    const ids = new Map<string, number>();
    rules.slice(0, 500).forEach((rule, index) => {
      if (!isPlainObject(rule)) return;
      const at: PathSegment[] = ['rules', index];
      const id = ownValue(rule, 'id');
      const decision = ownValue(rule, 'decision');
      if (typeof id === 'string') {
        const first = ids.get(id);
        if (first === undefined) ids.set(id, index);
        else out.push(report('POLICY_RULE_ID_DUPLICATE', `Rule id ${quote(id)} is already used by rules[${first}].`, [...at, 'id']));
      }
      const when = ownValue(rule, 'when');
      // A condition whose history calls are wrong is reported once, as POLICY_HISTORY_CALL_INVALID.
      if (typeof when === 'string' && when.length > 0 && when.length <= 2000 && historyCallsIn(when).problems.length === 0) {
        const compiled = compileCondition({ id: 'when', expression: when, message: 'when' }, 'policy');
        if (!compiled.ok) out.push(report('POLICY_CONDITION_INVALID', compiled.message, [...at, 'when']));
      }
      if (decision === 'require_approval' || decision === 'escalate') {
        const roles = ownValue(rule, 'roles');
        if (!Array.isArray(roles) || roles.length === 0) {
          out.push(
            report(
              'POLICY_RULE_NO_ROLES',
              `A \`${decision}\` rule must name the \`roles\` that decide.`,
              hasOwn(rule, 'roles') ? [...at, 'roles'] : [...at, 'decision'],
            ),
          );
        }
      }
      const set = ownValue(rule, 'set');
      if (decision === 'transform' && !(isPlainObject(set) && Object.keys(set).length > 0)) {
        out.push(
          report(
            'POLICY_TRANSFORM_WITHOUT_SET',
            'A `transform` rule needs `set`: the argument paths to rewrite and their values.',
            hasOwn(rule, 'set') ? [...at, 'set'] : [...at, 'decision'],
          ),
        );
      }
      if (decision !== 'transform' && set !== undefined && typeof decision === 'string') {
        out.push(
          report(
            'POLICY_SET_WITHOUT_TRANSFORM',
            `\`set\` is ignored when the decision is \`${decision}\`; only \`transform\` rewrites arguments.`,
            [...at, 'set'],
            'key',
          ),
        );
      }
    });
    return out;
  },
});
