import { z } from 'zod';
import { documentJsonSchema, SEMVER_PATTERN, SIDE_EFFECT_LEVELS, TOOL_ID_PATTERN } from '../contracts/contract-schema';
import {
  ARGUMENT_PATH_MESSAGE,
  LOWERCASE_ID_MESSAGE,
  SEMVER_MESSAGE,
  TOOL_ID_MESSAGE,
  TOOL_NAME_MESSAGE,
  TOOL_NAME_PATTERN,
} from '@toolgate/sdk/core';
import { isPlainObject } from '../json';

/**
 * The tool surface document: everything one agent loop is given at start-up (tools, capability
 * policy, approval policy, system prompt, `tool_search`), after Harn's `tool_surface_validate`
 * input. Every field carries a description because the generated JSON Schema drives editor
 * hover docs.
 */

export const SURFACE_SCHEMA_ID = 'https://toolgate.dev/schemas/surface.json';

/** A system prompt past this is refused: it is scanned on every keystroke in the studio. */
export const MAX_PROMPT_CHARS = 100_000;
export const MAX_SURFACE_TOOLS = 2000;

export const SURFACE_ID_PATTERN = /^[a-z][a-z0-9_.-]*$/;
// `*` stands for any run of characters; nothing else is special.
export const TOOL_PATTERN_PATTERN = /^[A-Za-z0-9_.*-]+$/;
const ARG_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
const TOOL_PATTERN_MESSAGE =
  'Expected a tool name or pattern: letters, digits, `_`, `.`, `-` and `*` (any run of characters), e.g. `orders.*`.';

export type JsonSchemaObject = Record<string, unknown>;

const toolName = (description: string) => z.string().min(1).max(128).regex(TOOL_NAME_PATTERN, TOOL_NAME_MESSAGE).describe(description);
const toolPattern = z
  .string()
  .min(1)
  .max(200)
  .regex(TOOL_PATTERN_PATTERN, TOOL_PATTERN_MESSAGE)
  .describe('A tool name, or a pattern where `*` matches any run of characters (`orders.*`).');
const argKey = (description: string) => z.string().min(1).max(256).regex(ARG_KEY_PATTERN, ARGUMENT_PATH_MESSAGE).describe(description);
const role = z.string().min(1).max(100).describe('A role name, e.g. `approver`.');
const executor = z
  .string()
  .min(1)
  .max(200)
  .describe('Who runs the tool (a service, a sandbox, the host); tools without one warn, as nothing would run them.');
const deferLoading = z
  .boolean()
  .optional()
  .describe('Deferred: the tool is left out of the initial tool list and is only discoverable through `tool_search`.');

export const SurfaceAnnotationsSchema = z
  .object({
    kind: z.enum(['query', 'mutation', 'execute', 'search', 'other']).optional().describe('What sort of operation the tool performs.'),
    side_effect_level: z
      .enum(SIDE_EFFECT_LEVELS)
      .optional()
      .describe('The most severe effect the tool can have, from `none` to `destructive`; left out, it counts as `none`.'),
    emits_artifacts: z
      .boolean()
      .optional()
      .describe('The tool may return handles to large output (artifacts) instead of the output itself.'),
    result_readers: z
      .array(toolName("Name of a tool that reads this tool's artifacts."))
      .max(50)
      .optional()
      .describe('Tools that can inspect the artifacts this tool emits; at least one must be active.'),
    inline_result: z.boolean().optional().describe('The tool always returns its complete output inline, so it needs no result reader.'),
    arg_aliases: z
      .record(argKey('The deprecated argument name.'), argKey('The canonical argument key it stands for.'))
      .optional()
      .describe('Deprecated argument names the tool still accepts, each mapped to its canonical key.'),
  })
  .strict()
  .describe('What the tool does and how its results are read (Harn ToolAnnotations).');

export const SurfaceContractToolSchema = z
  .object({
    contract: z
      .string()
      .max(128)
      .regex(TOOL_ID_PATTERN, TOOL_ID_MESSAGE)
      .describe('Id of a published Toolgate contract; its `input` schema and annotations describe the tool.'),
    executor: executor.optional(),
    defer_loading: deferLoading,
  })
  .strict()
  .describe('A tool described by a published Toolgate contract.');

export const SurfaceInlineToolSchema = z
  .object({
    name: toolName('The tool name the model calls.'),
    description: z.string().min(1).max(4000).optional().describe('What the tool does, written for the model that calls it.'),
    parameters: z
      .custom<JsonSchemaObject>(isPlainObject, { message: 'Expected a JSON Schema object' })
      .optional()
      .describe('JSON Schema for the call arguments.'),
    annotations: SurfaceAnnotationsSchema.optional(),
    executor: executor.optional(),
    defer_loading: deferLoading,
  })
  .strict()
  .describe('A tool declared inline, Harn style.');

export const SurfaceToolSchema = z
  .union([SurfaceContractToolSchema, SurfaceInlineToolSchema])
  .describe('A tool: `{contract: <id>}` for a published contract, or an inline `{name, parameters, annotations}`.');

/**
 * Which branch of `SurfaceToolSchema` an entry means, so a failing entry is explained against
 * the shape its author chose rather than against both: an entry with `contract` is a reference,
 * one with `name` is inline. Undefined when it has neither.
 */
export function surfaceToolBranch(value: unknown): 'contract' | 'inline' | undefined {
  if (!isPlainObject(value)) return undefined;
  if (Object.prototype.hasOwnProperty.call(value, 'contract')) return 'contract';
  if (Object.prototype.hasOwnProperty.call(value, 'name')) return 'inline';
  return undefined;
}

export const SurfaceArgConstraintSchema = z
  .object({
    tool: toolPattern,
    key: argKey('The argument key it constrains; dotted for nested keys (`options.mode`).'),
    allowed_values: z
      .array(z.union([z.string().max(1000), z.number(), z.boolean()]).describe('One allowed value.'))
      .min(1)
      .max(1000)
      .optional()
      .describe('The only values the argument may take.'),
    pattern: z.string().min(1).max(1000).optional().describe('A regular expression (RE2 syntax, linear time) the argument must match.'),
  })
  .strict()
  .refine((c) => (c.allowed_values === undefined) !== (c.pattern === undefined), {
    message: 'Give exactly one of `allowed_values` and `pattern`.',
  })
  .describe('A ToolArgConstraint: restricts one argument of the tools a pattern matches.');

export const SurfaceCapabilityPolicySchema = z
  .object({
    tools: z
      .array(toolPattern)
      .max(1000)
      .optional()
      .describe('Tools the loop may use; left out, every declared tool is allowed, and `[]` allows none.'),
    side_effect_ceiling: z.enum(SIDE_EFFECT_LEVELS).optional().describe('The most severe side-effect level an allowed tool may have.'),
    arg_constraints: z.array(SurfaceArgConstraintSchema).max(1000).optional().describe('Restrictions on individual arguments.'),
  })
  .strict()
  .describe('Capability policy: which tools the loop may use and how far their effects may go.');

export const SurfaceApprovalRuleSchema = z
  .object({
    tools: z.array(toolPattern).min(1).max(1000).describe('Tools whose calls need approval.'),
    roles: z.array(role).min(1).max(20).describe('Roles allowed to approve.'),
    expires_in_seconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .optional()
      .describe('How long an approval stays valid, in seconds.'),
    approvers_required: z.number().int().min(1).max(10).optional().describe('How many distinct approvers must approve (1 when left out).'),
  })
  .strict()
  .describe('An approval rule: calls of matching tools wait for an approver.');

export const SurfaceApprovalPolicySchema = z
  .object({
    rules: z.array(SurfaceApprovalRuleSchema).max(1000).describe('Approval rules, each for a set of tool patterns.'),
  })
  .strict()
  .describe('Approval policy: which tool calls need a human approval first.');

export const SurfaceSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(128)
      .regex(SURFACE_ID_PATTERN, LOWERCASE_ID_MESSAGE)
      .describe('Stable id of the surface, e.g. `support-agent`.'),
    version: z.string().max(64).regex(SEMVER_PATTERN, SEMVER_MESSAGE).describe('Semantic version of this surface, e.g. `1.0.0`.'),
    description: z.string().min(1).max(4000).optional().describe('What the agent using this surface is for.'),
    tools: z.array(SurfaceToolSchema).max(MAX_SURFACE_TOOLS).describe('The tools the agent loop is given.'),
    policy: SurfaceCapabilityPolicySchema.optional(),
    approval_policy: SurfaceApprovalPolicySchema.optional(),
    system: z
      .string()
      .max(MAX_PROMPT_CHARS)
      .optional()
      .describe('The system prompt. Fenced code blocks and `<!-- harn-tool-surface: ignore-… -->` regions are not scanned.'),
    tool_search: z.boolean().optional().describe('Whether the loop offers `tool_search`, the only way deferred tools become reachable.'),
  })
  .strict()
  .describe('A Toolgate tool surface: the tools, policies and prompt one agent loop starts with.');

export type Surface = z.output<typeof SurfaceSchema>;
export type SurfaceTool = z.output<typeof SurfaceToolSchema>;
export type SurfaceInlineTool = z.output<typeof SurfaceInlineToolSchema>;
export type SurfaceAnnotations = z.output<typeof SurfaceAnnotationsSchema>;
export type SurfaceCapabilityPolicy = z.output<typeof SurfaceCapabilityPolicySchema>;
export type SurfaceApprovalPolicy = z.output<typeof SurfaceApprovalPolicySchema>;

export function surfaceJsonSchema(): Record<string, unknown> {
  return documentJsonSchema(SurfaceSchema, SURFACE_SCHEMA_ID);
}
