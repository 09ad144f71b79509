import { ERROR_CODES, type ErrorCode } from '@toolgate/sdk/core';

// The runtime validation codes are defined in packages/sdk/src/error-codes.ts, because the SDK, which
// agents install alone, reports the same issues before a call leaves the agent.
export { ERROR_CODES, isWarningCode, makeIssue, type ErrorCode, type ValidationIssue } from '@toolgate/sdk/core';

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function errorCodesMarkdownTable(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => {
    const entry = ERROR_CODES[code];
    return `| \`${code}\` | ${entry.type} | ${entry.envelope_type} | ${entry.severity} | ${escapeCell(entry.description)} | ${escapeCell(entry.suggestion)} |`;
  });
  return ['| Error Code | Type | Envelope type | Severity | Description | Suggestion |', '|---|---|---|---|---|---|', ...rows].join('\n');
}
