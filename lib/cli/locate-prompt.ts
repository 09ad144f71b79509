import type { SourceRange } from '@/lib/lint';

/**
 * Prompt findings are ranged in the prompt text. In a file, a prompt written as a YAML literal
 * block (`system: |`) keeps its lines one for one, only indented, so a finding can point at its
 * exact place in the file. Every line used is checked against the prompt text itself; where the
 * check fails (folded or quoted prompts, JSON strings with `\n` escapes) there is no exact
 * place and the caller falls back to the prompt as a whole.
 */

// Matched against a trimmed header, so no two quantifiers compete for the same spaces.
const LITERAL_BLOCK_HEADER = /^\|(?:[1-9][+-]?|[+-][1-9]?)?(?:[ \t]+#.*)?$/;

/** Returns a mapper from prompt ranges to file ranges, or undefined when there is no exact one. */
export function promptBlockLocator(
  text: string,
  promptValue: SourceRange,
  prompt: string,
): ((range: SourceRange) => SourceRange | undefined) | undefined {
  const fileLines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const header = fileLines[promptValue.startLine - 1]?.slice(promptValue.startColumn - 1).trimEnd();
  if (header === undefined || !LITERAL_BLOCK_HEADER.test(header)) return undefined;
  const promptLines = prompt.split('\n');

  const place = (line: number, column: number): { line: number; column: number } | undefined => {
    const fileLine = promptValue.startLine + line;
    const content = fileLines[fileLine - 1];
    const wanted = promptLines[line - 1];
    if (content === undefined || wanted === undefined) return undefined;
    const indent = content.length - wanted.length;
    if (indent < 0 || content.slice(indent) !== wanted || content.slice(0, indent).trim() !== '') return undefined;
    return { line: fileLine, column: indent + column };
  };
  return (range) => {
    const start = place(range.startLine, range.startColumn);
    const end = place(range.endLine, range.endColumn);
    if (!start || !end) return undefined;
    return { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column };
  };
}
