/**
 * CEL's `lowerAscii()` and `upperAscii()` should change ASCII letters only, but the CEL library
 * (`@marcbachmann/cel-js`) implements them with JavaScript's full Unicode case mapping, and its
 * built-in functions cannot be replaced: `"o\u212A".lowerAscii() == "ok"` holds (U+212A KELVIN
 * SIGN lowers to `k`), as do `"ß".upperAscii() == "SS"` and `"É".lowerAscii() == "é"`. A
 * condition that compares a lowered argument with a fixed word lets a look-alike through while
 * the tool receives the other text, so lint warns where a condition calls either.
 */
const CASE_FOLDING_CALL = /\.\s*(lowerAscii|upperAscii)\s*\(/g;

export interface CaseFoldingCall {
  name: 'lowerAscii' | 'upperAscii';
  /** Offsets of the function's name in the expression. */
  start: number;
  end: number;
}

export function caseFoldingCalls(expression: string): CaseFoldingCall[] {
  const calls: CaseFoldingCall[] = [];
  for (const match of expression.matchAll(CASE_FOLDING_CALL)) {
    const name = match[1] as CaseFoldingCall['name'];
    const start = (match.index ?? 0) + match[0].indexOf(name);
    calls.push({ name, start, end: start + name.length });
  }
  return calls;
}

export function caseFoldingMessage(name: CaseFoldingCall['name']): string {
  return `\`${name}()\` here also changes non-ASCII letters (U+212A KELVIN SIGN lowers to \`k\`, \`ß\` uppers to \`SS\`), so a look-alike of the word it is compared with passes; compare the exact values, or test the text with \`matches()\` and an ASCII pattern.`;
}
