import { z } from 'zod';
import { ContractTestSchema } from './contract-test-schema.ts';
import { isPlainObject } from './json.ts';

/**
 * The tool contract document: what a tool accepts, returns and is allowed to do. Every field
 * carries a description because the generated JSON Schema drives editor hover docs. It lives in
 * the SDK, which agents install alone, because zodToContract checks what it generates against
 * it; the server reads it through lib/contracts/contract-schema.ts.
 */

/** Ordered from harmless to irreversible; policies compare levels with `compareSideEffectLevels`. */
export const SIDE_EFFECT_LEVELS = ['none', 'read_only', 'write', 'process_exec', 'external', 'destructive'] as const;
export type SideEffectLevel = (typeof SIDE_EFFECT_LEVELS)[number];

/** Negative when `a` is less severe than `b`, zero when equal, positive when more severe. */
export function compareSideEffectLevels(a: SideEffectLevel, b: SideEffectLevel): number {
  return SIDE_EFFECT_LEVELS.indexOf(a) - SIDE_EFFECT_LEVELS.indexOf(b);
}

export const TOOL_ID_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
// SemVer 2.0.0 (semver.org's pattern) without build metadata, which must not distinguish two
// versions of a document. Numeric identifiers have no leading zeros, in the pre-release too:
// `semver` refuses `1.0.0-01`, and publishing orders versions with it. Major, minor and patch
// stay below 10^15 because `semver` refuses numbers past Number.MAX_SAFE_INTEGER.
export const SEMVER_PATTERN =
  /^(0|[1-9]\d{0,14})\.(0|[1-9]\d{0,14})\.(0|[1-9]\d{0,14})(-(0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*)?$/;
/** What a version that does not match SEMVER_PATTERN is told. */
export const SEMVER_MESSAGE =
  'Expected a semantic version such as `1.2.0` or `1.2.0-rc.1` (SemVer 2.0.0: numbers without leading zeros, so `1.0.0-1`, not `1.0.0-01`; no `+build` metadata).';
// Any tool a surface can declare (a contract id or an inline tool's name): the same language the
// prompt scanner reads as one word (lib/lint/prompt-scan.ts), so every tool name can be found in
// prompt text. Each `.`/`-` group starts with a character the previous group cannot contain, so
// the regex is unambiguous and runs in linear time.
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(?:[.-][A-Za-z0-9_]+)*$/;
export const ARGUMENT_PATH_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
const CONDITION_ID_PATTERN = /^[a-z][a-z0-9_.-]*$/;
/** One top-level argument name (no dots), as an alias or the key it stands for. */
export const ARGUMENT_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;
// What a value that does not match each pattern is told, in the author's terms: Zod's own
// message quotes the regular expression.
export const TOOL_ID_MESSAGE =
  'Expected a tool id: two or more parts joined by `.`, each of lowercase letters, digits and `_` starting with a letter, e.g. `orders.lookup`.';
export const TOOL_NAME_MESSAGE =
  'Expected a tool name: letters, digits and `_`, starting with a letter or `_`, in parts joined by `.` or `-`, e.g. `search_orders` or `orders.lookup`.';
export const ARGUMENT_PATH_MESSAGE =
  'Expected an argument key (letters, digits, `_` and `-`, starting with a letter or `_`), or keys joined by `.` for a nested one, e.g. `card.last4`.';
export const ARGUMENT_KEY_MESSAGE =
  'Expected an argument key: letters, digits, `_` and `-`, starting with a letter or `_`, e.g. `order_id`.';
/** For ids of a document's parts (conditions, side effects, policy rules and limits) and policy and surface ids. */
export const LOWERCASE_ID_MESSAGE =
  'Expected an id: lowercase letters, digits, `_`, `.` and `-`, starting with a letter, e.g. `refund-window`.';

export type JsonSchemaObject = Record<string, unknown>;

// z.custom instead of z.record: Zod's record parser silently drops an own `__proto__` key,
// which would make the stored document (and its hash) differ from what was submitted. The
// schema is passed through untouched and validated for real by Ajv at compile time.
const jsonSchemaObject = (description: string) =>
  z.custom<JsonSchemaObject>(isPlainObject, { message: 'Expected a JSON Schema object' }).describe(description);

const argumentPath = (description: string) =>
  z.string().min(1).max(256).regex(ARGUMENT_PATH_PATTERN, ARGUMENT_PATH_MESSAGE).describe(description);

const role = z.string().min(1).max(100).describe('A role name, e.g. `approver`.');

export const AnnotationsSchema = z
  .object({
    kind: z.enum(['query', 'mutation', 'execute', 'search', 'other']).describe('What sort of operation the tool performs.'),
    side_effect_level: z.enum(SIDE_EFFECT_LEVELS).describe('The most severe effect the tool can have, from `none` to `destructive`.'),
    idempotent: z.boolean().describe('Whether repeating the same call has no further effect.'),
    idempotency_strategy: z
      .enum(['key', 'natural'])
      .optional()
      .describe('How repeats are recognised: an idempotency key, or naturally by the arguments.'),
    confirmation_required: z.boolean().default(false).describe('The user must confirm each call before it runs.'),
    approval_required: z.boolean().default(false).describe('An approver must approve each call before it runs.'),
    approver_roles: z.array(role).max(20).default([]).describe('Roles allowed to approve calls of this tool.'),
    required_roles: z.array(role).min(1).max(20).optional().describe("The caller's roles must include at least one of these."),
    approval_ttl_seconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .optional()
      .describe('How long an approval stays valid, in seconds.'),
    // Harn's artifact annotations, as inline surface tools have them: a surface that lists this
    // contract is linted for a reader of what it emits (TOOL_SURFACE_MISSING_RESULT_READER).
    emits_artifacts: z
      .boolean()
      .optional()
      .describe('The tool may return handles to large output (artifacts) instead of the output itself.'),
    result_readers: z
      .array(
        z.string().min(1).max(128).regex(TOOL_NAME_PATTERN, TOOL_NAME_MESSAGE).describe("Name of a tool that reads this tool's artifacts."),
      )
      .max(50)
      .optional()
      .describe('Tools that can inspect the artifacts this tool emits; a surface listing this tool must have at least one of them active.'),
    inline_result: z.boolean().optional().describe('The tool always returns its complete output inline, so it needs no result reader.'),
    invalid_result: z
      .enum(['withhold', 'pass_through'])
      .optional()
      .describe(
        'What the MCP gateway does with a result that fails this contract: `withhold` it from the model (the default; the model gets an error with the reason) or `pass_through` (recorded as a violation, returned as it is).',
      ),
  })
  .strict()
  .describe('Safety and behaviour annotations for the tool.');

export const ConditionSchema = z
  .object({
    id: z.string().min(1).max(100).regex(CONDITION_ID_PATTERN, LOWERCASE_ID_MESSAGE).describe('Stable id of the condition.'),
    expression: z
      .string()
      .min(1)
      .max(2000)
      .describe('CEL expression that must evaluate to true. Variables: `args`, `context` (and `result` in postconditions).'),
    message: z.string().min(1).max(500).describe('Human-readable statement of what must hold.'),
    suggestion: z.string().min(1).max(500).optional().describe('How a caller can make the condition hold.'),
  })
  .strict()
  .describe('A machine-checkable condition written in CEL.');

export const SideEffectSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(100)
      .regex(CONDITION_ID_PATTERN, LOWERCASE_ID_MESSAGE)
      .describe('Stable id of the side effect, as callers report it.'),
    description: z.string().min(1).max(1000).describe('What the side effect is.'),
    required: z.boolean().optional().describe('If true, a successful call must report this side effect.'),
  })
  .strict()
  .describe('A side effect the tool may cause.');

export const ToolContractSchema = z
  .object({
    id: z.string().max(128).regex(TOOL_ID_PATTERN, TOOL_ID_MESSAGE).describe('Stable dotted tool name, e.g. `cart.begin_checkout`.'),
    version: z.string().max(64).regex(SEMVER_PATTERN, SEMVER_MESSAGE).describe('Semantic version of this contract, e.g. `1.2.0`.'),
    description: z.string().min(1).max(4000).describe('What the tool does, written for the model that calls it.'),
    owner: z.string().min(1).max(200).describe('Team or person responsible for the tool.'),
    input: jsonSchemaObject('JSON Schema (2020-12) for the call arguments.'),
    output: jsonSchemaObject('JSON Schema (2020-12) for a successful result.').optional(),
    errors: jsonSchemaObject('JSON Schema (2020-12) for error responses.').optional(),
    annotations: AnnotationsSchema,
    scope: z
      .object({
        tenant: argumentPath('Dotted argument path holding the tenant id, e.g. `order.tenant_id`.').optional(),
        user: argumentPath('Dotted argument path holding the user id, e.g. `user_id`.').optional(),
      })
      .strict()
      .optional()
      .describe('Where the tenant and user ids sit inside the arguments.'),
    preconditions: z.array(ConditionSchema).max(50).optional().describe('Conditions checked before the call runs.'),
    postconditions: z.array(ConditionSchema).max(50).optional().describe('Conditions checked against the result.'),
    side_effects: z.array(SideEffectSchema).max(50).optional().describe('Side effects the tool declares.'),
    retry: z
      .object({
        max_attempts: z.number().int().min(1).max(20).describe('Total attempts including the first.'),
        backoff_ms: z.number().int().min(0).max(600_000).optional().describe('Delay between attempts in milliseconds.'),
        retry_on: z.array(z.string().min(1).max(100)).max(50).optional().describe('Error codes that are worth retrying.'),
      })
      .strict()
      .optional()
      .describe('Retry policy for callers.'),
    timeout_ms: z.number().int().min(1).max(3_600_000).optional().describe('Maximum run time in milliseconds.'),
    deprecated: z
      .union([
        z.boolean(),
        z
          .object({
            message: z.string().min(1).max(1000).describe('Why the tool is deprecated.'),
            replacement: z.string().max(128).regex(TOOL_ID_PATTERN, TOOL_ID_MESSAGE).optional().describe('Tool id to use instead.'),
          })
          .strict(),
      ])
      .optional()
      .describe('Marks the tool as deprecated, optionally naming a replacement.'),
    argument_aliases: z
      .record(
        z.string().max(128).regex(ARGUMENT_KEY_PATTERN, ARGUMENT_KEY_MESSAGE).describe('The deprecated argument name.'),
        z
          .string()
          .max(128)
          .regex(ARGUMENT_KEY_PATTERN, ARGUMENT_KEY_MESSAGE)
          .describe('The canonical argument key (in `input.properties`) it stands for.'),
      )
      .refine((aliases) => Object.keys(aliases).length <= 100, 'At most 100 argument aliases.')
      .optional()
      .describe(
        'Deprecated argument names that are still accepted, each mapped to the canonical key it stands for, e.g. `{"orderId": "order_id"}`. Callers should move to the canonical key.',
      ),
    sensitive: z
      .array(argumentPath('Dotted argument path to redact.'))
      .max(100)
      .optional()
      .describe('Argument paths that must be redacted in stored evidence.'),
    tests: z
      .array(ContractTestSchema)
      .max(200)
      .optional()
      .describe('Example calls with the decision and error codes they must get; a failing case blocks publishing.'),
  })
  .strict()
  .describe('A Toolgate tool contract.');

/** A parsed contract, defaults applied. */
export type ToolContract = z.output<typeof ToolContractSchema>;
/** A contract as authored: defaulted fields may be omitted. */
export type ToolContractInput = z.input<typeof ToolContractSchema>;
export type ContractCondition = z.output<typeof ConditionSchema>;
