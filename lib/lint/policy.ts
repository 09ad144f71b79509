import { RE2JS } from 're2js';
import semver from 'semver';
import { compileCondition } from '../contracts/compile-conditions';
import { PolicySchema, toolPatternMatches } from '../policies/policy-schema';
import { ownValue } from '../validation/json-path';
import type { LintOptions } from './index';
import type { ParsedDocument, PathSegment } from './parse-document';
import { conformanceDiagnostics, fieldName, hasOwn, isPlainObject, quote, reporterFor, type CodeRegistry, type Locate } from './schema-checks';
import type { Diagnostic } from './types';
import { compilePolicy } from '../policies/compile-policy';
import { runPolicyTests } from '../policies/policy-tests';

/**
 * The policy linter: conformance to the policy format, then what the format alone cannot say
 * (conditions that do not compile, rules that can never fire, approvals nobody can give).
 */

export const POLICY_LINT_CODES = {
  POLICY_SCHEMA_INVALID: { severity: 'error', summary: 'The document does not match the policy format.' },
  POLICY_CONDITION_INVALID: {
    severity: 'error',
    summary: 'A rule\'s `when` is not valid CEL, is not boolean, uses variables other than `args` and `context`, or uses a refused function.',
  },
  POLICY_RULE_ID_DUPLICATE: { severity: 'error', summary: 'Two rules share an id; evidence names the deciding rule by id.' },
  POLICY_RULE_NO_ROLES: { severity: 'error', summary: 'A `require_approval` or `escalate` rule names no `roles`, so nobody could decide.' },
  POLICY_TRANSFORM_WITHOUT_SET: { severity: 'error', summary: 'A `transform` rule has no `set`, so it would change nothing.' },
  POLICY_SET_WITHOUT_TRANSFORM: { severity: 'warning', summary: '`set` on a rule whose decision is not `transform` is ignored.' },
  POLICY_APPROVAL_NO_ROLES: { severity: 'error', summary: 'An approval rule has no `roles`: calls it matches could never be approved.' },
  POLICY_APPROVERS_REQUIRED_INVALID: { severity: 'error', summary: '`approvers_required` is below 1; at least one approver must decide.' },
  POLICY_ARG_CONSTRAINT_NO_RULE: { severity: 'error', summary: 'An argument constraint has neither `allowed_values` nor `pattern`.' },
  POLICY_ARG_CONSTRAINT_BOTH_RULES: { severity: 'error', summary: 'An argument constraint has both `allowed_values` and `pattern`; give one.' },
  POLICY_ARG_CONSTRAINT_EMPTY_VALUES: { severity: 'error', summary: '`allowed_values` is empty, so every value of the argument would be refused.' },
  POLICY_ARG_CONSTRAINT_DUPLICATE: { severity: 'warning', summary: 'Two argument constraints name the same tool and key.' },
  POLICY_REGEX_UNSAFE: { severity: 'error', summary: 'An argument constraint `pattern` is invalid or cannot run on the linear-time RE2 engine.' },
  POLICY_DUPLICATE_TOOL_PATTERN: { severity: 'warning', summary: 'A tool pattern appears twice in the same list.' },
  POLICY_RULE_UNREACHABLE: {
    severity: 'warning',
    summary: 'A rule can never fire: an earlier rule without `when` covers all its tools and decides first.',
  },
  POLICY_VERSION_NOT_INCREASED: { severity: 'error', summary: 'The version is not greater (by semver) than the latest published version.' },
  POLICY_TEST_FAILED: { severity: 'error', summary: "One of the policy's test cases gets a different decision, rule or error codes than it expects." },
} as const satisfies CodeRegistry;

export type PolicyLintCode = keyof typeof POLICY_LINT_CODES;
type Report = ReturnType<typeof reporterFor<typeof POLICY_LINT_CODES>>;

export function lintPolicy(parsed: ParsedDocument, options: LintOptions): Diagnostic[] {
  const document = parsed.value;
  const conformance = PolicySchema.safeParse(document);
  const diagnostics = conformance.success
    ? []
    : conformanceDiagnostics(conformance.error.issues, document, parsed.locate, 'POLICY_SCHEMA_INVALID');
  if (!isPlainObject(document)) return diagnostics;
  const report = reporterFor(POLICY_LINT_CODES, parsed.locate);

  const capability = ownValue(document, 'capability');
  diagnostics.push(...duplicatePatterns(ownValue(capability, 'tools'), ['capability', 'tools'], report));
  diagnostics.push(...lintApprovalPolicy(ownValue(document, 'approval'), ['approval'], parsed.locate));
  diagnostics.push(...lintArgConstraints(ownValue(document, 'arg_constraints'), ['arg_constraints'], parsed.locate));
  diagnostics.push(...checkRules(ownValue(document, 'rules'), report));

  if (conformance.success && conformance.data.tests?.length) {
    const compiled = compilePolicy(conformance.data);
    if (compiled.ok) {
      for (const result of runPolicyTests(compiled.policy, conformance.data.tests)) {
        if (!result.passed) diagnostics.push(report('POLICY_TEST_FAILED', `Test "${result.name}" fails: ${result.failure ?? ''}.`, ['tests', result.index, 'expect']));
      }
    }
  }

  const version = ownValue(document, 'version');
  const previous = options.previousVersion;
  if (typeof version === 'string' && previous !== undefined && semver.valid(version) && semver.valid(previous) && !semver.gt(version, previous)) {
    diagnostics.push(report('POLICY_VERSION_NOT_INCREASED', `Version ${version} is not greater than the published version ${previous}; published versions are immutable, so use a higher one.`, ['version']));
  }
  return diagnostics;
}

function duplicatePatterns(list: unknown, path: readonly PathSegment[], report: Report): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!Array.isArray(list)) return out;
  const first = new Map<string, number>();
  list.slice(0, 500).forEach((pattern, index) => {
    if (typeof pattern !== 'string') return;
    const earlier = first.get(pattern);
    if (earlier === undefined) first.set(pattern, index);
    else out.push(report('POLICY_DUPLICATE_TOOL_PATTERN', `Tool pattern ${quote(pattern)} already appears at ${fieldName([...path, earlier])}.`, [...path, index]));
  });
  return out;
}

/** Checks an approval section; exported for the surface linter, whose `approval_policy` has this shape. */
export function lintApprovalPolicy(section: unknown, path: readonly PathSegment[], locate: Locate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const rules = ownValue(section, 'rules');
  if (!Array.isArray(rules)) return out;
  const report = reporterFor(POLICY_LINT_CODES, locate);
  rules.slice(0, 500).forEach((rule, index) => {
    if (!isPlainObject(rule)) return;
    const at = [...path, 'rules', index];
    out.push(...duplicatePatterns(ownValue(rule, 'tools'), [...at, 'tools'], report));
    const roles = ownValue(rule, 'roles');
    if (!Array.isArray(roles) || roles.length === 0) {
      const diagnostic = report('POLICY_APPROVAL_NO_ROLES', `${fieldName(at)} names no approver roles: calls it matches could never be approved.`, hasOwn(rule, 'roles') ? [...at, 'roles'] : at);
      // A rule without `roles` underlines its first key rather than the whole rule.
      out.push(hasOwn(rule, 'roles') ? diagnostic : { ...diagnostic, range: locate([...at, Object.keys(rule)[0] ?? ''], 'key') });
    }
    const required = ownValue(rule, 'approvers_required');
    if (typeof required === 'number' && required < 1) {
      out.push(report('POLICY_APPROVERS_REQUIRED_INVALID', `\`approvers_required\` is ${required}; at least one approver must decide.`, [...at, 'approvers_required']));
    }
  });
  return out;
}

/** Checks a list of argument constraints; exported for the surface linter's `policy.arg_constraints`. */
export function lintArgConstraints(list: unknown, path: readonly PathSegment[], locate: Locate): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!Array.isArray(list)) return out;
  const report = reporterFor(POLICY_LINT_CODES, locate);
  const seen = new Map<string, number>();
  list.slice(0, 1000).forEach((constraint, index) => {
    if (!isPlainObject(constraint)) return;
    const at = [...path, index];
    const values = ownValue(constraint, 'allowed_values');
    const pattern = ownValue(constraint, 'pattern');
    if (values === undefined && pattern === undefined) {
      const diagnostic = report('POLICY_ARG_CONSTRAINT_NO_RULE', `${fieldName(at)} constrains nothing: give \`allowed_values\` or \`pattern\`.`, at);
      out.push({ ...diagnostic, range: locate([...at, Object.keys(constraint)[0] ?? ''], 'key') });
    } else if (values !== undefined && pattern !== undefined) {
      out.push(report('POLICY_ARG_CONSTRAINT_BOTH_RULES', `${fieldName(at)} has both \`allowed_values\` and \`pattern\`; give one.`, [...at, 'pattern'], 'key'));
    }
    if (Array.isArray(values) && values.length === 0) {
      out.push(report('POLICY_ARG_CONSTRAINT_EMPTY_VALUES', '`allowed_values` is empty, so every value of the argument would be refused.', [...at, 'allowed_values']));
    }
    if (typeof pattern === 'string' && pattern.length <= 1000) {
      try {
        RE2JS.compile(pattern);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        out.push(report('POLICY_REGEX_UNSAFE', `Pattern ${quote(pattern)} cannot run on the linear-time RE2 engine: ${reason.slice(0, 200)}`, [...at, 'pattern']));
      }
    }
    const tool = ownValue(constraint, 'tool');
    const key = ownValue(constraint, 'key');
    if (typeof tool === 'string' && typeof key === 'string') {
      const identity = JSON.stringify([tool, key]);
      const earlier = seen.get(identity);
      if (earlier === undefined) seen.set(identity, index);
      else out.push(report('POLICY_ARG_CONSTRAINT_DUPLICATE', `${quote(tool)} argument ${quote(key)} is already constrained at ${fieldName([...path, earlier])}.`, [...at, 'key']));
    }
  });
  return out;
}

function checkRules(rules: unknown, report: Report): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!Array.isArray(rules)) return out;
  const ids = new Map<string, number>();
  const earlier: { index: number; id: string; tools: string[]; decision: unknown }[] = [];
  rules.slice(0, 500).forEach((rule, index) => {
    if (!isPlainObject(rule)) return;
    const at: PathSegment[] = ['rules', index];
    const id = ownValue(rule, 'id');
    const decision = ownValue(rule, 'decision');
    const toolsValue = ownValue(rule, 'tools');
    const tools = Array.isArray(toolsValue) ? toolsValue.filter((t): t is string => typeof t === 'string') : [];
    out.push(...duplicatePatterns(toolsValue, [...at, 'tools'], report));

    if (typeof id === 'string') {
      const first = ids.get(id);
      if (first === undefined) ids.set(id, index);
      else out.push(report('POLICY_RULE_ID_DUPLICATE', `Rule id ${quote(id)} is already used by rules[${first}].`, [...at, 'id']));
    }
    const when = ownValue(rule, 'when');
    if (typeof when === 'string' && when.length > 0 && when.length <= 2000) {
      const compiled = compileCondition({ id: 'when', expression: when, message: 'when' }, 'pre');
      if (!compiled.ok) out.push(report('POLICY_CONDITION_INVALID', compiled.message, [...at, 'when']));
    }
    if (decision === 'require_approval' || decision === 'escalate') {
      const roles = ownValue(rule, 'roles');
      if (!Array.isArray(roles) || roles.length === 0) {
        out.push(report('POLICY_RULE_NO_ROLES', `A \`${decision}\` rule must name the \`roles\` that decide.`, hasOwn(rule, 'roles') ? [...at, 'roles'] : [...at, 'decision']));
      }
    }
    const set = ownValue(rule, 'set');
    if (decision === 'transform' && !(isPlainObject(set) && Object.keys(set).length > 0)) {
      out.push(report('POLICY_TRANSFORM_WITHOUT_SET', 'A `transform` rule needs `set`: the argument paths to rewrite and their values.', hasOwn(rule, 'set') ? [...at, 'set'] : [...at, 'decision']));
    }
    if (decision !== 'transform' && set !== undefined && typeof decision === 'string') {
      out.push(report('POLICY_SET_WITHOUT_TRANSFORM', `\`set\` is ignored when the decision is \`${decision}\`; only \`transform\` rewrites arguments.`, [...at, 'set'], 'key'));
    }

    // First match decides, but a matching `deny` anywhere wins: an unconditional earlier rule
    // shadows a later one unless the later one denies and the earlier one does not.
    const shadow = tools.length === 0 ? undefined : earlier.find(
      (e) => (e.decision === 'deny' || decision !== 'deny') && tools.every((t) => e.tools.some((p) => toolPatternMatches(p, t))),
    );
    if (shadow) {
      out.push(report('POLICY_RULE_UNREACHABLE', `Rule ${quote(typeof id === 'string' ? id : index)} can never fire: rule ${quote(shadow.id)} (rules[${shadow.index}]) has no \`when\`, covers all its tools and comes first.`, typeof id === 'string' ? [...at, 'id'] : at));
    }
    if (when === undefined && tools.length > 0) earlier.push({ index, id: typeof id === 'string' ? id : String(index), tools, decision });
  });
  return out;
}
