import { z } from 'zod';
import { ARGUMENT_PATH_PATTERN, documentJsonSchema, SEMVER_PATTERN, SIDE_EFFECT_LEVELS } from '../contracts/contract-schema';
import { ARGUMENT_PATH_MESSAGE, LOWERCASE_ID_MESSAGE, SEMVER_MESSAGE } from '@toolgate/sdk/core';
import { PolicyTestSchema } from './policy-test-schema';
import { DECISIONS } from '../decisions';
import { HISTORY_SCOPES, parseWindow, WINDOW_PATTERN } from '../history/history-terms';

/**
 * The policy document: which tools an agent may use at all (capability), who must approve
 * which calls (approval), what argument values are allowed (argument constraints), and ordered
 * runtime rules. Every field is described because the generated JSON Schema drives the studio's
 * hover docs. The capability, approval and argument-constraint sections are exported on their
 * own because a tool surface embeds them as `policy:` and `approval_policy:`.
 */

export const POLICY_SCHEMA_ID = 'https://toolgate.dev/schemas/policy.json';

export const POLICY_ID_PATTERN = /^[a-z][a-z0-9_.-]*$/;
/** Tool ids plus `*`; see `toolPatternMatches`. */
export const TOOL_PATTERN_PATTERN = /^[a-z0-9_.*]+$/;
const TOOL_PATTERN_MESSAGE =
  'Expected a tool id or pattern: lowercase letters, digits, `_`, `.` and `*` (any run of characters), e.g. `payments.*`.';

// Applying `set` writes into the arguments; these segments would reach an object's prototype.
const FORBIDDEN_PATH_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

const role = z.string().min(1).max(100).describe('A role name, e.g. `finance_approver`.');

export const ToolPatternSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(TOOL_PATTERN_PATTERN, TOOL_PATTERN_MESSAGE)
  .describe('A tool id, or a pattern where `*` matches any run of characters: `orders.*`, `payments.refund`, `*`.');

const toolPatterns = (description: string) => z.array(ToolPatternSchema).max(200).describe(description);

export const CapabilitySchema = z
  .object({
    tools: toolPatterns('Tool id patterns this policy allows; a tool matching none of them is refused.').optional(),
    side_effect_ceiling: z
      .enum(SIDE_EFFECT_LEVELS)
      .optional()
      .describe('The most severe side-effect level allowed, from `none` to `destructive`; tools above it are refused.'),
  })
  .strict()
  .describe('Which tools are allowed at all.');

export const ArgConstraintSchema = z
  .object({
    tool: ToolPatternSchema.describe('The tool id (or pattern) whose argument is constrained.'),
    key: z
      .string()
      .min(1)
      .max(256)
      .regex(ARGUMENT_PATH_PATTERN, ARGUMENT_PATH_MESSAGE)
      .describe('The argument key, or a dotted path to a nested one.'),
    allowed_values: z
      .array(z.union([z.string().max(1000), z.number(), z.boolean()]))
      .max(1000)
      .optional()
      .describe('The only values the argument may take. Give this or `pattern`, not both.'),
    pattern: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe(
        'RE2 regex the argument (a string) must match; unanchored like JSON Schema `pattern`, so write `^…$` to match the whole value. Give this or `allowed_values`, not both.',
      ),
  })
  .strict()
  .describe('Restricts one argument of a tool to a set of values or a pattern.');

export const ApprovalRuleSchema = z
  .object({
    tools: toolPatterns('Tool id patterns whose calls need approval.').min(1),
    roles: z.array(role).max(20).describe('Roles allowed to approve; at least one is needed.'),
    expires_in_seconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .optional()
      .describe('How long a pending approval stays valid, in seconds.'),
    approvers_required: z.number().int().max(10).optional().describe('How many distinct approvers must approve (default 1).'),
  })
  .strict()
  .describe('Calls of matching tools need approval from someone holding one of the roles.');

export const ApprovalPolicySchema = z
  .object({
    rules: z.array(ApprovalRuleSchema).max(200).describe('Approval rules; every rule matching a call applies.'),
  })
  .strict()
  .describe('Who must approve which tool calls.');

/** A surface's `policy:` section: the capability plus its argument constraints, in one object. */
export const CapabilityPolicySchema = CapabilitySchema.extend({
  arg_constraints: z.array(ArgConstraintSchema).max(500).optional().describe('Allowed values or patterns for tool arguments.'),
})
  .strict()
  .describe('Which tools are allowed, up to which side-effect level, with which argument values.');

const setPath = z
  .string()
  .min(1)
  .max(256)
  .regex(ARGUMENT_PATH_PATTERN, ARGUMENT_PATH_MESSAGE)
  .refine((path) => !path.split('.').some((segment) => FORBIDDEN_PATH_SEGMENTS.has(segment)), 'This path segment is reserved.')
  .describe('Dotted argument path to set.');

export const PolicyRuleSchema = z
  .object({
    id: z.string().min(1).max(100).regex(POLICY_ID_PATTERN, LOWERCASE_ID_MESSAGE).describe('Stable id of the rule, unique in the policy.'),
    tools: toolPatterns('Tool id patterns this rule applies to.').min(1),
    when: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .describe(
        'CEL condition; the rule applies only when it is true. Variables: `args`, `context`, and `history` with `history.count(tools, scope, window[, decision])`, `history.sum(tools, path, scope, window)`, `history.seconds_since(tools, scope, window)`, `history.called(tools, scope, window)` and `history.called_with(tools, paths, scope, window)`, where scope is `key`, `user`, `session` or `tenant` and window is like `10m`, `1h` or `7d` (all literals). Without it the rule always applies.',
      ),
    decision: z
      .enum(DECISIONS)
      .describe(
        'What happens to a matching call: `allow`, `deny`, `transform` (rewrite arguments with `set`), `require_approval` or `escalate`.',
      ),
    reason: z.string().min(1).max(500).optional().describe('Why; shown to the caller and recorded as evidence.'),
    roles: z.array(role).max(20).optional().describe('For `require_approval` and `escalate`: the roles that decide.'),
    set: z.record(setPath, z.json()).optional().describe('For `transform`: argument path -> value to set before the call runs.'),
  })
  .strict()
  .describe('A runtime rule.');

const windowText = z
  .string()
  .max(16)
  .regex(WINDOW_PATTERN, 'Not a window: write a number and s, m, h or d, e.g. `10m` or `1h`.')
  // Only a well-formed window can be too long; a malformed one has its own message above.
  .refine((text) => !WINDOW_PATTERN.test(text) || parseWindow(text).ok, 'The window is longer than 31 days, the history Toolgate keeps.')
  .describe('How far back calls are counted: a number and s, m, h or d, e.g. `10m`, `1h`, `7d` (at most 31 days).');

export const LimitSchema = z
  .object({
    id: z.string().min(1).max(100).regex(POLICY_ID_PATTERN, LOWERCASE_ID_MESSAGE).describe('Stable id of the limit, unique in the policy.'),
    tools: toolPatterns('Tool id patterns whose calls count against the limit (together).').min(1),
    per: z
      .enum(HISTORY_SCOPES)
      .describe(
        'Whose calls count together: `key` (the API key), `user` (context.user_id), `session` (context.session_id) or `tenant` (everyone). Calls without the id share one allowance.',
      ),
    window: windowText,
    max_calls: z
      .number()
      .int()
      .min(0)
      .max(1_000_000_000)
      .optional()
      .describe('At most this many calls in the window. Give this or `max_sum`.'),
    max_sum: z
      .object({
        path: setPath.describe('Dotted path of the numeric argument summed, e.g. `amount`.'),
        value: z.number().min(0).max(1e15).describe('The most the argument may add up to in the window.'),
      })
      .strict()
      .optional()
      .describe('At most this total of one numeric argument in the window (a budget). Give this or `max_calls`.'),
    when_exceeded: z
      .enum(['deny', 'require_approval'])
      .default('deny')
      .describe(
        '`deny` (a hard limit: AXAG_RATE_LIMITED or AXAG_BUDGET_EXCEEDED, with when to retry) or `require_approval` (a soft limit: past it, a person approves each call).',
      ),
    roles: z.array(role).max(20).optional().describe('For `require_approval`: the roles that may approve.'),
    reason: z.string().min(1).max(500).optional().describe('Why the limit exists; shown to the caller.'),
  })
  .strict()
  .refine((limit) => (limit.max_calls === undefined) !== (limit.max_sum === undefined), {
    message: 'Give exactly one of max_calls and max_sum.',
  })
  .describe(
    'A limit on calls over time. What counts: calls allowed to run (allow or transform), including a held call once its approval is redeemed; refused calls never count.',
  );

export const PolicySchema = z
  .object({
    id: z.string().min(1).max(100).regex(POLICY_ID_PATTERN, LOWERCASE_ID_MESSAGE).describe('Stable policy id, e.g. `support-default`.'),
    version: z.string().max(64).regex(SEMVER_PATTERN, SEMVER_MESSAGE).describe('Semantic version of this policy, e.g. `1.2.0`.'),
    description: z.string().min(1).max(4000).optional().describe('What the policy is for.'),
    capability: CapabilitySchema.optional(),
    approval: ApprovalPolicySchema.optional(),
    arg_constraints: z.array(ArgConstraintSchema).max(500).optional().describe('Allowed values or patterns for tool arguments.'),
    rules: z
      .array(PolicyRuleSchema)
      .max(500)
      .optional()
      .describe('Ordered runtime rules: the first matching rule decides, except that a matching `deny` anywhere wins.'),
    limits: z
      .array(LimitSchema)
      .max(100)
      .optional()
      .describe('Rate limits and budgets, checked after the argument constraints and before the rules; exact across instances.'),
    tests: z
      .array(PolicyTestSchema)
      .max(200)
      .optional()
      .describe('Example calls with the decision this policy must reach; they run as you edit, on publish and in `toolgate test`.'),
  })
  .strict()
  .describe('A Toolgate policy.');

export type Policy = z.output<typeof PolicySchema>;
export type PolicyRule = z.output<typeof PolicyRuleSchema>;
export type ArgConstraint = z.output<typeof ArgConstraintSchema>;
export type Limit = z.output<typeof LimitSchema>;
export type ApprovalPolicy = z.output<typeof ApprovalPolicySchema>;
export type CapabilityPolicy = z.output<typeof CapabilityPolicySchema>;

export function policyJsonSchema(): Record<string, unknown> {
  return documentJsonSchema(PolicySchema, POLICY_SCHEMA_ID);
}

/**
 * Whether `toolId` matches `pattern`, where `*` matches any run of characters (dots included)
 * and everything else is literal. Matched directly, never via a RegExp built from the pattern:
 * greedy with one backtrack point, O(pattern × id) at worst.
 *
 * A pattern also "matches" another pattern when it covers every id that one covers, because a
 * literal `*` in `toolId` can only be consumed by a `*` in `pattern`.
 */
export function toolPatternMatches(pattern: string, toolId: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < toolId.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === toolId[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

export function isExactPattern(pattern: string): boolean {
  return !pattern.includes('*');
}
