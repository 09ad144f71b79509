import { makeIssue, type ValidationIssue } from './error-codes';
import { formatJsonPath } from './json-path';

/**
 * Numbers a caller sends that a JavaScript double cannot hold as written. `JSON.parse` would
 * change them without a word: `1e309` becomes Infinity (which no JSON can carry back out),
 * `9007199254740993` becomes 9007199254740992, `1e-400` becomes 0. Toolgate refuses them
 * instead of validating, hashing, storing and showing a value the agent never sent.
 *
 * Ordinary decimals are not findings: `0.1` keeps JavaScript's reading (the double nearest to
 * it), as every JSON library does, and so does `1.0000000000000001` (read as 1). What is
 * refused is exactly:
 * - `not_finite`: the double is ±Infinity (`1e309`, `-1e309`);
 * - `unsafe_integer`: the number's exact value is an integer beyond ±(2^53−1), however it is
 *   written (`9007199254740993`, `1e16`, `12345678901234567.0`), because above that a double
 *   no longer tells neighbouring integers apart (ids, amounts in minor units, snowflakes);
 * - `underflow`: a non-zero number that reads as 0 (`1e-400`).
 */

export type NumberProblem = 'not_finite' | 'unsafe_integer' | 'underflow';

export interface NumberFinding {
  /** Where the number sits, as path segments and as a JSONPath (`$.arguments.id`). */
  segments: (string | number)[];
  path: string;
  /** The number token exactly as sent. */
  token: string;
  /** Offsets of the token in the scanned text. */
  start: number;
  end: number;
  problem: NumberProblem;
}

/** A body's findings with the text their offsets point into (what validate/pre and post record). */
export interface ReportedNumbers {
  text: string;
  findings: NumberFinding[];
}

const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Exponents with more digits than this are not read as numbers (exactDecimal, exponentText). */
const LONG_EXPONENT = 30;

/** A number token's exact decimal value as digits × 10^exponent (no leading or trailing zeros). */
interface ExactDecimal {
  negative: boolean;
  /** Significant digits, '' for zero. */
  digits: string;
  /** The value is 0.<digits> × 10^point (ECMAScript's `n` in Number::toString); ±10^30 past an exponent of 30 digits. */
  point: bigint;
  /** The token's exponent as written, without sign or leading zeros ('' for none or 0), and its sign. */
  exponentDigits: string;
  exponentNegative: boolean;
  /** point minus the exponent: where the mantissa's point is, a small number. */
  shift: number;
}

function exactDecimal(token: string): ExactDecimal {
  const negative = token.startsWith('-');
  const body = negative ? token.slice(1) : token;
  const e = body.search(/[eE]/);
  const mantissa = e === -1 ? body : body.slice(0, e);
  const written = e === -1 ? '' : body.slice(e + 1);
  const exponentNegative = written.startsWith('-');
  const exponentDigits = written.replace(/^[+-]/, '').replace(/^0+/, '');
  // An exponent of more than 30 digits is held as ±10^30: past every bound `point` is compared
  // with, and exponentText prints it from its digits. Reading a million digits as a BigInt, like
  // printing one, takes V8 time that grows faster than their number.
  const exponent =
    exponentDigits === ''
      ? 0n
      : exponentDigits.length > LONG_EXPONENT
        ? (exponentNegative ? -1n : 1n) * 10n ** BigInt(LONG_EXPONENT)
        : BigInt(exponentNegative ? `-${exponentDigits}` : exponentDigits);
  const dot = mantissa.indexOf('.');
  const whole = dot === -1 ? mantissa : mantissa.slice(0, dot);
  const all = whole + (dot === -1 ? '' : mantissa.slice(dot + 1));
  const lead = all.search(/[1-9]/);
  if (lead === -1) return { negative, digits: '', point: 0n, exponentDigits, exponentNegative, shift: 0 };
  const digits = all.slice(lead).replace(/0+$/, '');
  const shift = whole.length - lead;
  return { negative, digits, point: BigInt(shift) + exponent, exponentDigits, exponentNegative, shift };
}

/** Why a JSON number token cannot be held by a double as sent, or null when it can. */
export function numberProblem(token: string): NumberProblem | null {
  // Without an exponent, 15 characters hold at most 15 integer digits (below 2^53) and too few
  // fraction digits to underflow: the common case stops here.
  if (token.length < 16 && !/[eE]/.test(token)) return null;
  const read = Number(token);
  if (!Number.isFinite(read)) return 'not_finite';
  const exact = exactDecimal(token);
  if (exact.digits === '') return null;
  if (read === 0) return 'underflow';
  const k = BigInt(exact.digits.length);
  if (exact.point < k) return null; // has a fraction: an ordinary decimal
  if (exact.point > 16n) return 'unsafe_integer'; // at least 10^16
  const integer = BigInt(exact.digits + '0'.repeat(Number(exact.point - k)));
  return integer > MAX_SAFE ? 'unsafe_integer' : null;
}

/**
 * The number's exact value in ECMAScript's number-to-string layout, with every significant
 * digit kept: `9007199254740993`, `1e+309`, `1.5e-400`. For a value a double holds exactly this
 * is what JSON.stringify writes, so a hash over it agrees with the canonical JSON of ordinary
 * numbers; for the others it is the value that was sent, not a rounding of it.
 */
export function exactNumberText(token: string): string {
  const exact = exactDecimal(token);
  const { negative, digits, point } = exact;
  if (digits === '') return '0';
  const k = BigInt(digits.length);
  let text: string;
  if (k <= point && point <= 21n) text = digits + '0'.repeat(Number(point - k));
  else if (0n < point && point <= 21n) text = `${digits.slice(0, Number(point))}.${digits.slice(Number(point))}`;
  else if (-6n < point && point <= 0n) text = `0.${'0'.repeat(Number(-point))}${digits}`;
  else text = `${digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`}e${exponentText(exact)}`;
  return negative ? `-${text}` : text;
}

/**
 * The exponent of exactNumberText's exponential form (point - 1), signed, as text. Printed from
 * the token's own exponent digits when they are many: V8 prints a BigInt in time quadratic in its
 * length, and an exponent of 900,000 digits (a 1 MB body) held the request thread for seconds.
 * Such an exponent dwarfs `shift - 1` (at most the token's length), which only changes its last digits.
 */
function exponentText(exact: ExactDecimal): string {
  if (exact.exponentDigits.length <= LONG_EXPONENT) {
    const e = exact.point - 1n;
    return `${e < 0n ? '-' : '+'}${e < 0n ? -e : e}`;
  }
  const delta = exact.shift - 1;
  return `${exact.exponentNegative ? '-' : '+'}${addToDecimal(exact.exponentDigits, exact.exponentNegative ? -delta : delta)}`;
}

/** A decimal integer of more than 30 digits plus a number of at most 15 digits, as text, in linear time. */
function addToDecimal(digits: string, delta: number): string {
  const cut = digits.length - 18;
  let head = digits.slice(0, cut);
  let tail = BigInt(digits.slice(cut)) + BigInt(delta);
  const base = 10n ** 18n;
  if (tail >= base) {
    tail -= base;
    // Carry into the head: its trailing 9s become 0s and the digit before them goes up by one.
    const nines = /9*$/.exec(head)?.[0].length ?? 0;
    const rest = head.slice(0, head.length - nines);
    head = (rest === '' ? '1' : rest.slice(0, -1) + String(Number(rest.slice(-1)) + 1)) + '0'.repeat(nines);
  } else if (tail < 0n) {
    tail += base;
    // Borrow from the head (at least 10^12, so never all zeros): trailing 0s become 9s.
    const zeros = /0*$/.exec(head)?.[0].length ?? 0;
    const rest = head.slice(0, head.length - zeros);
    head = (rest.slice(0, -1) + String(Number(rest.slice(-1)) - 1)).replace(/^0+/, '') + '9'.repeat(zeros);
  }
  return `${head}${tail.toString().padStart(18, '0')}`.replace(/^0+/, '');
}

interface Frame {
  array: boolean;
  index: number;
  keyStart: number;
  keyEnd: number;
}

/**
 * Every number in a JSON text that a double cannot hold as sent, with its path. The text must
 * be valid JSON (call after JSON.parse accepted it). Linear; a repeated key is scanned in every
 * occurrence, as the text carries it even though JSON.parse keeps only the last.
 */
export function findUnrepresentableNumbers(text: string, limit = Number.POSITIVE_INFINITY): NumberFinding[] {
  const findings: NumberFinding[] = [];
  const stack: Frame[] = [];
  let expectKey = false;
  const n = text.length;
  let i = 0;
  while (i < n && findings.length < limit) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
      i++;
      const top = stack[stack.length - 1];
      if (expectKey && top && !top.array) {
        top.keyStart = start;
        top.keyEnd = i;
        expectKey = false;
      }
      continue;
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      NUMBER_TOKEN.lastIndex = i;
      const match = NUMBER_TOKEN.exec(text);
      const token = match?.[0] ?? text[i] ?? '';
      const start = i;
      i += Math.max(token.length, 1);
      const problem = numberProblem(token);
      if (problem) {
        const segments = stack.map((frame) =>
          frame.array ? frame.index : (JSON.parse(text.slice(frame.keyStart, frame.keyEnd)) as string),
        );
        findings.push({ segments, path: formatJsonPath(segments), token, start, end: i, problem });
      }
      continue;
    }
    if (c === 123 /* { */) {
      stack.push({ array: false, index: 0, keyStart: 0, keyEnd: 0 });
      expectKey = true;
    } else if (c === 91 /* [ */) {
      stack.push({ array: true, index: 0, keyStart: 0, keyEnd: 0 });
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
    } else if (c === 44 /* , */) {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
      else expectKey = true;
    }
    i++;
  }
  return findings;
}

/**
 * One linear pass before JSON.parse: whether the text nests deeper than `maxDepth`, and whether
 * it may hold a number a double cannot keep. Only a run of 16 or more digits or an exponent
 * outside strings can be one, so most bodies never reach the exact scan above; the pass costs
 * about what the depth check alone did (see docs/numbers.md for the measurement).
 */
export function inspectJsonText(text: string, maxDepth: number): { tooDeep: boolean; numbersToCheck: boolean } {
  let depth = 0;
  let run = 0;
  let numbersToCheck = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      run = 0;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
      continue;
    }
    if (c >= 48 && c <= 57) {
      if (++run >= 16) numbersToCheck = true;
      continue;
    }
    if ((c === 101 || c === 69) /* e E */ && run > 0) numbersToCheck = true;
    run = 0;
    if (c === 123 || c === 91) {
      if (++depth > maxDepth) return { tooDeep: true, numbersToCheck };
    } else if (c === 125 || c === 93) depth--;
  }
  return { tooDeep: false, numbersToCheck };
}

/** For messages: a number token of up to 40 characters, else its ends. */
export function clipToken(token: string): string {
  return token.length <= 40 ? token : `${token.slice(0, 20)}…${token.slice(-12)}`;
}

export function describeNumberProblem(problem: NumberProblem): string {
  if (problem === 'not_finite') return 'beyond the largest double (it would read as Infinity)';
  if (problem === 'underflow') return 'not zero, but it would read as 0';
  return 'an integer beyond ±(2^53−1) (9007199254740991), where doubles skip integers';
}

/** The sentence every refusal of a number starts with: where it is, what was sent, why it cannot be held. */
export function describeNumberFinding(finding: NumberFinding, path = finding.path): string {
  return `${path} is ${clipToken(finding.token)}, ${describeNumberProblem(finding.problem)}`;
}

/**
 * The AXAG_NUMBER_UNREPRESENTABLE issue for one number, as validate/pre and validate/post report
 * it and the MCP stdio proxy tells the model: the proxy cannot send such a call on to Toolgate
 * unchanged, so it says what Toolgate would. `path` is where the caller sent it.
 */
export function numberIssue(intent: string, finding: NumberFinding, path = finding.path): ValidationIssue {
  return makeIssue('AXAG_NUMBER_UNREPRESENTABLE', {
    intent,
    path,
    message: describeNumberFinding(finding, path),
    suggestion: `Send ${path} as a string, e.g. "${clipToken(exactNumberText(finding.token))}".`,
    constraint: { keyword: 'number', problem: finding.problem, max_safe_integer: Number.MAX_SAFE_INTEGER },
    sent: clipToken(finding.token),
  });
}
