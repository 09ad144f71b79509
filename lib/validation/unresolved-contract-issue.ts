import { makeIssue, type ValidationIssue } from './error-codes';

/** The refusal for a call whose contract cannot be resolved: safe by default, never an allow. */
export function unresolvedContractIssue(
  reason: 'unknown_tool' | 'version_not_found' | 'version_deprecated',
  tool: string,
  version: string | undefined,
): ValidationIssue {
  if (reason === 'version_deprecated')
    return makeIssue('AXAG_VERSION_NOT_FOUND', {
      intent: tool,
      message: `Version "${version}" of tool "${tool}" is deprecated and can no longer be pinned. Call it without "version" to use its current version.`,
      path: '$.version',
      reason: 'deprecated',
    });
  return reason === 'version_not_found'
    ? makeIssue('AXAG_VERSION_NOT_FOUND', {
        intent: tool,
        message: `Tool "${tool}" has no published version "${version}".`,
        path: '$.version',
      })
    : makeIssue('AXAG_UNKNOWN_TOOL', { intent: tool, message: `Tool "${tool}" has no published contract in this tenant.`, path: '$.tool' });
}
