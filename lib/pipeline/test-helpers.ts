// Helpers for the pipeline tests: edit copies of example contexts, freeze inputs, respell keys,
// and run a context through every entry point to check the results are well formed.
import { expect } from 'vitest';
import { camelCaseOf, PIPELINE_CONTEXT_FIELDS, type FieldMap } from './context-fields';
import { PIPELINE_STEPS, type PipelineValidationResult } from './types';
import { validateCore, validatePostStep, validatePreStep, validateToolCallManifest } from './validate-pipeline';

export const codes = (result: PipelineValidationResult) => result.errors.map((issue) => issue.code);
export const warningCodes = (result: PipelineValidationResult) => result.warnings.map((issue) => issue.code);

/**
 * A deep copy of `value` with the dotted path (`Envelope.SessionId`, `ToolCalls.1.Name`) set to
 * `replacement`, or deleted when `replacement` is undefined.
 */
export function withField(value: unknown, dotted: string, replacement: unknown): Record<string, unknown> {
  const copy = structuredClone(value) as Record<string, unknown>;
  const segments = dotted.split('.');
  const last = segments.pop() as string;
  let target = copy as Record<string, unknown>;
  for (const segment of segments) target = target[segment] as Record<string, unknown>;
  if (replacement === undefined) delete target[last];
  else target[last] = replacement;
  return copy;
}

/** Applies several withField edits in order. */
export function withFields(value: unknown, edits: Record<string, unknown>): Record<string, unknown> {
  return Object.entries(edits).reduce<Record<string, unknown>>(
    (acc, [path, replacement]) => withField(acc, path, replacement),
    value as Record<string, unknown>,
  );
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

/**
 * Respells the AGN-036 field names in camelCase, the way a JavaScript client would send them.
 * Opaque values (Org, AgentContext, ResponsePayload ...) keep their keys: they are not ours to
 * respell, and the validator compares them as they are.
 */
export function toCamelCase(value: unknown, fields: FieldMap = PIPELINE_CONTEXT_FIELDS): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const spec = fields[key];
      if (!spec) return [key, inner];
      const nestedFields = spec.kind === 'object' ? spec.fields : spec.kind === 'array' ? spec.items?.fields : undefined;
      const respelled = !nestedFields
        ? inner
        : Array.isArray(inner)
          ? inner.map((item) => toCamelCase(item, nestedFields))
          : toCamelCase(inner, nestedFields);
      return [camelCaseOf(key), respelled];
    }),
  );
}

/** `depth` nested single-key objects, built without recursion. */
export function nested(depth: number, leaf: unknown = 'x'): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Every entry point on one context: core, PRE and POST of all ten steps, and its manifest. */
export function everyEntryPoint(ctx: unknown, before: unknown = ctx): PipelineValidationResult[] {
  const manifest = typeof ctx === 'object' && ctx !== null ? (ctx as Record<string, unknown>).ToolCallManifest : ctx;
  return [
    validateCore(ctx),
    ...PIPELINE_STEPS.flatMap((step) => [validatePreStep(ctx, step), validatePostStep(ctx, step, before)]),
    validateToolCallManifest(manifest),
    validateToolCallManifest(ctx),
  ];
}

export const isWellFormed = (result: PipelineValidationResult) =>
  result.valid === (result.errors.length === 0) &&
  [...result.errors, ...result.warnings].every(
    (issue) => issue.code.startsWith('AGN036.') && issue.path.startsWith('$') && typeof issue.message === 'string' && issue.message !== '',
  );

export const expectWellFormed = (result: PipelineValidationResult) =>
  expect(isWellFormed(result), JSON.stringify(result).slice(0, 2000)).toBe(true);
