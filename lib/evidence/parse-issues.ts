/** One error or warning of an evidence record, as the traces and violations pages show it. */
export interface IssueView {
  code: string;
  type: string;
  message: string;
  path: string;
}

/** The errors/warnings columns: JSON arrays of issues; anything else reads as none. */
export function parseIssues(text: string): IssueView[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value
    .filter((i): i is Record<string, unknown> => !!i && typeof i === 'object')
    .map((i) => ({ code: String(i.code ?? ''), type: String(i.type ?? ''), message: String(i.message ?? ''), path: String(i.path ?? '') }));
}
