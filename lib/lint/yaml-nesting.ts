/**
 * Whether a YAML text may nest deeper than `max`, read without parsing. The `yaml` package
 * parses nesting recursively, and past about 1,000 levels of flow collections (`[[[…]]]`) or
 * compact sequences (`- - - … x`), 2 KB of text, V8 aborts the whole process ("RegExpCompiler
 * Allocation failed"), which no try/catch stops: one lint request could end the server. So
 * such a text is refused before the parser sees it. Counted: `[` and `{` not yet closed outside
 * quoted scalars and comments, and the `- `, `? ` and `: ` indicators that open a line. Brackets
 * in plain scalars count too, so this can only overestimate; callers allow slack over the depth
 * they enforce on the parsed value.
 */
export function yamlMayNestDeeperThan(text: string, max: number): boolean {
  let flow = 0;
  let indicators = 0;
  let lineStart = true;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (quote === '"' && c === '\\') i += 1;
      else if (quote === "'" && c === "'" && text[i + 1] === "'") i += 1;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '\n') {
      lineStart = true;
      indicators = 0;
      continue;
    }
    const before = i === 0 ? '\n' : text[i - 1];
    const tokenStart = before === '\n' || before === ' ' || before === '\t' || before === '[' || before === '{' || before === ',';
    if (c === '#' && (before === '\n' || before === ' ' || before === '\t')) {
      const end = text.indexOf('\n', i);
      if (end === -1) break;
      i = end - 1;
      continue;
    }
    if ((c === '"' || c === "'") && tokenStart) {
      quote = c;
      lineStart = false;
      continue;
    }
    if (c === '[' || c === '{') {
      if (++flow > max) return true;
      lineStart = false;
      continue;
    }
    if (c === ']' || c === '}') {
      if (flow > 0) flow -= 1;
      lineStart = false;
      continue;
    }
    if (!lineStart) continue;
    if (c === ' ' || c === '\t') continue;
    const next = text[i + 1];
    if ((c === '-' || c === '?' || c === ':') && (next === undefined || next === ' ' || next === '\t' || next === '\n' || next === '\r')) {
      if (++indicators > max) return true;
      continue;
    }
    lineStart = false;
  }
  return false;
}
