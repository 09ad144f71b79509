import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanPrompt } from './prompt-scan';

const texts = (prompt: string) => scanPrompt(prompt).words.map((w) => w.text);
const problems = (prompt: string) => scanPrompt(prompt).problems.map((p) => [p.code, p.line, p.column, p.endColumn]);

const NEXT = '<!-- harn-tool-surface: ignore-next-line -->';
const START = '<!-- harn-tool-surface: ignore-start -->';
const END = '<!-- harn-tool-surface: ignore-end -->';

describe('scanPrompt: words', () => {
  it('reads names with inner dots and hyphens, drops trailing punctuation and numbers', () => {
    expect(texts('Use orders.lookup. Then run_command-style, 3rd 2.5 x-')).toEqual([
      'Use',
      'orders.lookup',
      'Then',
      'run_command-style',
      'x',
    ]);
  });

  it('gives 1-based line and column of each word, with CRLF line ends', () => {
    const words = scanPrompt('one\r\n  two three\n\tfour').words;
    expect(words.map((w) => [w.text, w.line, w.column])).toEqual([
      ['one', 1, 1],
      ['two', 2, 3],
      ['three', 2, 7],
      ['four', 3, 2],
    ]);
  });

  it('marks calls, but not plurals such as tool(s)', () => {
    const words = scanPrompt('call lookup(id) and tool(s) and match(es) and f (x)').words;
    expect(words.filter((w) => w.call).map((w) => w.text)).toEqual(['lookup']);
  });

  it('marks inline code and argument keys', () => {
    const words = scanPrompt('Pass `cmd` as {"path": 1, mode = 2, a == b, c => d}').words;
    expect(words.filter((w) => w.code).map((w) => w.text)).toEqual(['cmd']);
    expect(words.filter((w) => w.key).map((w) => w.text)).toEqual(['path', 'mode']);
  });

  it('links each word to the innermost enclosing call, across lines but not paragraphs', () => {
    const words = scanPrompt('run({a: f(b), c: [d]}, e) g\nrun(h\ni\n\nj)').words;
    const enclosing = Object.fromEntries(words.map((w) => [w.text, w.enclosingCall === -1 ? null : words[w.enclosingCall]?.text]));
    expect(enclosing).toEqual({
      run: null,
      a: 'run',
      f: 'run',
      b: 'f',
      c: 'run',
      d: 'run',
      e: 'run',
      g: null,
      h: 'run',
      i: 'run',
      j: null,
    });
  });
});

describe('scanPrompt: suppression', () => {
  it('skips ``` and ~~~ fences, which close only on a long enough fence of the same character', () => {
    expect(texts('a\n```js\nb\n~~~\nc\n```\nd\n~~~~\ne\n~~~\nf\n~~~~\ng')).toEqual(['a', 'd', 'g']);
  });

  it('allows up to three spaces before a fence, and no backtick in a backtick fence’s info string', () => {
    expect(texts('   ```\nhidden\n   ```\nshown')).toEqual(['shown']);
    expect(texts('    ```\nshown')).toEqual(['shown']);
    expect(texts('```inline``` shown')).toEqual(['inline', 'shown']);
  });

  it('ignore-next-line hides exactly the next line', () => {
    expect(texts(`a\n${NEXT}\nb c\nd`)).toEqual(['a', 'd']);
    expect(texts(`a\n  ${NEXT}  \n\nd`)).toEqual(['a', 'd']);
  });

  it('ignore-start hides up to ignore-end, fences and markers included', () => {
    expect(texts(`a\n${START}\nb\n\`\`\`\n${NEXT}\nc\n${END}\nd`)).toEqual(['a', 'd']);
    expect(problems(`a\n${START}\nb\n${END}\nd`)).toEqual([]);
  });

  it('accepts markers with free spacing and rejects other comments', () => {
    expect(texts('<!--harn-tool-surface:ignore-next-line-->\nb\nc')).toEqual(['c']);
    expect(texts('<!-- harn-tool-surface: ignore-everything -->\nb')).toEqual(['harn-tool-surface', 'ignore-everything', 'b']);
    expect(texts('<!-- note -->\nb')).toEqual(['note', 'b']);
  });

  it('markers inside a fence are code, not markers', () => {
    expect(texts(`\`\`\`\n${START}\n\`\`\`\nshown`)).toEqual(['shown']);
    expect(problems(`\`\`\`\n${START}\n\`\`\`\nshown`)).toEqual([]);
  });

  it('reports an unterminated ignore-start at the marker and hides the rest', () => {
    expect(texts(`a\n  ${START}\nb`)).toEqual(['a']);
    expect(problems(`a\n  ${START}\nb`)).toEqual([['SURFACE_PROMPT_UNTERMINATED_IGNORE', 2, 3, 3 + START.length]]);
  });

  it('reports an ignore-end without a start', () => {
    expect(problems(`a\n${END}\nb`)).toEqual([['SURFACE_PROMPT_UNMATCHED_IGNORE_END', 2, 1, 1 + END.length]]);
    expect(texts(`a\n${END}\nb`)).toEqual(['a', 'b']);
  });

  it('reports an unterminated fence at its opening line', () => {
    expect(problems('a\n ~~~ text\nb')).toEqual([['SURFACE_PROMPT_UNTERMINATED_FENCE', 2, 2, 10]]);
    expect(problems('a\n ~~~ text\nb\n~~~')).toEqual([]);
  });
});

describe('scanPrompt: untrusted input', () => {
  it('is linear on adversarial prompts of 100k characters', () => {
    const inputs = [
      'a('.repeat(50_000),
      '('.repeat(100_000),
      '`a'.repeat(50_000),
      'a.'.repeat(50_000),
      'a-'.repeat(50_000),
      `${START}\n`.repeat(2_500),
      '```\n'.repeat(25_000),
      `<!--${' '.repeat(99_990)}-->`,
      `x${'\n'.repeat(99_999)}`,
    ];
    const start = performance.now();
    for (const input of inputs) scanPrompt(input);
    // A quadratic scan of any of these would take many seconds; this allows a very busy machine.
    expect(performance.now() - start).toBeLessThan(2_000);
  });

  it('never throws, and every word is the text at its offsets', () => {
    const piece = fc.constantFrom(
      'a_b',
      'x.y',
      '-',
      '.',
      '(',
      ')',
      '{',
      '}',
      '[',
      ']',
      '`',
      '```',
      '~~~',
      ':',
      '=',
      '"',
      ' ',
      '\n',
      '\r\n',
      '\n\n',
      '3',
      's)',
      NEXT,
      START,
      END,
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string()), { maxLength: 40 }), (parts) => {
        const prompt = parts.join('');
        const scan = scanPrompt(prompt);
        for (const w of scan.words) {
          expect(prompt.slice(w.start, w.end)).toBe(w.text);
          expect(w.enclosingCall).toBeLessThan(scan.words.length);
        }
      }),
      { numRuns: 500 },
    );
  });
});
