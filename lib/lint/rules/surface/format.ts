import type { z } from 'zod';
import { SurfaceContractToolSchema, SurfaceInlineToolSchema, surfaceToolBranch } from '../../../surfaces/surface-schema';
import { formatJsonPath, ownValue } from '../../../validation/json-path';
import type { PathSegment } from '../../parse-document';
import { schemaIssueMessage } from '../../semver';
import { defineRule } from '../registry';
import { valueAt, type SurfaceContext } from './context';

const MAX_SCHEMA_DIAGNOSTICS = 200;

/** Conformance to the tool surface format. */
export const surfaceFormatRule = defineRule({
  codes: {
    SURFACE_SCHEMA_INVALID: { severity: 'error', summary: 'The document does not match the tool surface format.' },
  },
  check({ parsed, conformance }: SurfaceContext, report) {
    if (conformance.success) return [];
    return schemaFindings(conformance.error.issues, parsed.value)
      .slice(0, MAX_SCHEMA_DIAGNOSTICS)
      .map((finding) => report('SURFACE_SCHEMA_INVALID', finding.message, finding.path, finding.part));
  },
});

interface SchemaFinding {
  message: string;
  path: PathSegment[];
  part: 'key' | 'value';
}

/**
 * Zod issues as findings at their paths. A failing tool entry is explained against the shape
 * its author chose (`contract` or `name`), never against both union branches: Zod alone would
 * sometimes pick the other branch and report `contract` as an unknown field of an inline tool.
 */
function schemaFindings(issues: readonly z.core.$ZodIssue[], root: unknown): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  const failedTools = new Set<number>();
  const rawTools = ownValue(root, 'tools');
  for (const issue of issues) {
    const [first, index] = issue.path;
    if (first === 'tools' && typeof index === 'number' && Array.isArray(rawTools)) failedTools.add(index);
    else findings.push(...issueFindings(issue, [], root));
  }
  for (const index of failedTools) {
    const path = ['tools', index];
    const entry: unknown = Array.isArray(rawTools) ? rawTools[index] : undefined;
    const branch = surfaceToolBranch(entry);
    const schema = branch === 'contract' ? SurfaceContractToolSchema : branch === 'inline' ? SurfaceInlineToolSchema : undefined;
    const result = schema?.safeParse(entry);
    if (!result)
      findings.push({
        message: 'A tool needs either `contract` (a published contract id) or `name` (an inline tool).',
        path,
        part: 'value',
      });
    else if (!result.success) for (const issue of result.error.issues) findings.push(...issueFindings(issue, path, root));
  }
  return findings;
}

function issueFindings(issue: z.core.$ZodIssue, prefix: readonly PathSegment[], root: unknown): SchemaFinding[] {
  const path = [...prefix, ...issue.path.filter((s): s is string | number => typeof s !== 'symbol')];
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map((key) => ({ message: `Unknown field \`${key}\`.`, path: [...path, key], part: 'key' }));
  const missing = issue.code === 'invalid_type' && valueAt(root, path) === undefined;
  const field = path[path.length - 1];
  const message =
    missing && typeof field === 'string' ? `Missing required field \`${field}\`.` : `${formatJsonPath(path)}: ${schemaIssueMessage(issue)}`;
  return [{ message, path, part: missing ? 'key' : 'value' }];
}
