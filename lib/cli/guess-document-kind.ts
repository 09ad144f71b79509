import type { DocumentKind } from '@/lib/lint';

/**
 * Which linter a file needs, read from the fields it has, so one `toolgate lint` works on
 * a folder of mixed documents. A contract is checked first because only it has `input` and
 * `annotations` together; a surface lists `tools`; the policy fields come last.
 */

const POLICY_FIELDS = ['capability', 'rules', 'approval', 'arg_constraints', 'limits'] as const;

function has(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

export function guessDocumentKind(value: unknown): DocumentKind | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (has(value, 'input') && has(value, 'annotations')) return 'contract';
  if (has(value, 'tools')) return 'surface';
  if (POLICY_FIELDS.some((field) => has(value, field))) return 'policy';
  return undefined;
}
