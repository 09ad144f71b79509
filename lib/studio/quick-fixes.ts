import semver from 'semver';
import { argumentReferences, celEnvironment } from '../lint/cel-argument-references';
import { segmentsOfJsonPath } from '../lint/json-path-segments';
import type { PathSegment } from '../lint/parse-document';
import { rangeInsideScalar } from '../lint/scalar-range';
import type { Diagnostic, DocumentFormat, SourceRange } from '../lint/types';
import { isPlainObject } from '../json';
import { ownValue } from '../validation/json-path';
import { declareMember, EditableDocument, EMPTY, removeItem, replaceValue, valueText, type TextEdit } from './document-edits';

/**
 * Quick fixes for the linter's common findings: given the document text and one diagnostic,
 * the edits that resolve it, written in the document's own notation and formatting. Pure; the
 * studio offers them as Monaco code actions (the light bulb, Ctrl+.).
 */

export interface QuickFix {
  title: string;
  edits: TextEdit[];
  /** The fix to apply when the author asks for "the" fix. */
  preferred?: boolean;
}

export interface QuickFixInput {
  text: string;
  format: DocumentFormat;
  diagnostic: Diagnostic;
  /** The version the runtime serves, for `*_VERSION_NOT_INCREASED`. */
  previousVersion?: string;
}

type Fixer = (doc: EditableDocument, at: PathSegment[], input: QuickFixInput) => QuickFix[];

/** Bound pairs as the JSON Schema checks name them: lower, upper. */
const BOUNDS: readonly (readonly [string, string])[] = [
  ['minimum', 'maximum'],
  ['exclusiveMinimum', 'exclusiveMaximum'],
  ['minimum', 'exclusiveMaximum'],
  ['exclusiveMinimum', 'maximum'],
  ['minLength', 'maxLength'],
  ['minItems', 'maxItems'],
  ['minProperties', 'maxProperties'],
  ['minContains', 'maxContains'],
];

const fix = (title: string, edit: TextEdit | undefined, preferred = false): QuickFix[] =>
  edit ? [{ title, edits: [edit], ...(preferred ? { preferred } : {}) }] : [];

/** `input.required[1]` names a key no `properties` declares: declare it, or stop requiring it. */
const requiredNotInProperties: Fixer = (doc, at) => {
  const index = at[at.length - 1];
  const key = doc.valueAt(at);
  if (typeof index !== 'number' || at[at.length - 2] !== 'required' || typeof key !== 'string') return [];
  const schema = at.slice(0, -2);
  const properties = doc.valueAt([...schema, 'properties']);
  if (properties !== undefined && !isPlainObject(properties)) return [];
  return [
    ...fix(`Add "${key}" to properties`, declareMember(doc, [...schema, 'properties'], key, EMPTY), true),
    ...fix(`Remove "${key}" from required`, removeItem(doc, [...schema, 'required'], index)),
  ];
};

/** `minimum` above `maximum` (and the other pairs): the author most often swapped them. */
const minGreaterThanMax: Fixer = (doc, at) => {
  const low = at[at.length - 1];
  const schema = at.slice(0, -1);
  for (const [lower, upper] of BOUNDS) {
    if (lower !== low) continue;
    const min = doc.valueAt([...schema, lower]);
    const max = doc.valueAt([...schema, upper]);
    if (typeof min !== 'number' || typeof max !== 'number' || min <= max) continue;
    const minText = valueText(doc, [...schema, lower]);
    const maxText = valueText(doc, [...schema, upper]);
    return [
      {
        title: `Swap ${lower} and ${upper} (${minText} ↔ ${maxText})`,
        edits: [replaceValue(doc, [...schema, lower], maxText), replaceValue(doc, [...schema, upper], minText)],
        preferred: true,
      },
    ];
  }
  return [];
};

/**
 * Where `path` into the arguments would be declared: the `properties` of the deepest schema the
 * input declares along it, and the first key it lacks. Only plain `properties` nesting is
 * followed; a path through `$ref`s or combinators gets no fix (the author knows the shape).
 */
function undeclaredArgument(doc: EditableDocument, path: readonly PathSegment[]): { objectPath: PathSegment[]; key: string } | undefined {
  let schemaPath: PathSegment[] = ['input'];
  for (const segment of path) {
    if (typeof segment !== 'string') return undefined;
    const schema = doc.valueAt(schemaPath);
    if (!isPlainObject(schema)) return undefined;
    const properties = ownValue(schema, 'properties');
    if (properties !== undefined && !isPlainObject(properties)) return undefined;
    if (!isPlainObject(properties) || ownValue(properties, segment) === undefined)
      return { objectPath: [...schemaPath, 'properties'], key: segment };
    schemaPath = [...schemaPath, 'properties', segment];
  }
  return undefined;
}

function sameRange(a: SourceRange, b: SourceRange): boolean {
  return a.startLine === b.startLine && a.startColumn === b.startColumn && a.endLine === b.endLine && a.endColumn === b.endColumn;
}

/** A condition reads `args.x` the input schema does not declare: declare it in `input.properties`. */
const conditionUnknownArgument: Fixer = (doc, at, { diagnostic }) => {
  const expression = doc.valueAt(at);
  if (typeof expression !== 'string' || expression.length > 2000) return [];
  let references;
  try {
    references = argumentReferences(celEnvironment.parse(expression).ast);
  } catch {
    return [];
  }
  const whole = doc.parsed.locate(at);
  // The diagnostic underlines the reference it is about; an expression written with escapes is
  // underlined whole, and then any undeclared reference in it will do.
  const ordered = [
    ...references.filter((r) => sameRange(rangeInsideScalar(doc.parsed, whole, expression, r.start, r.end), diagnostic.range)),
    ...references,
  ];
  for (const reference of ordered) {
    const missing = undeclaredArgument(doc, reference.path);
    if (missing)
      return fix(
        `Declare "${missing.key}" in ${missing.objectPath.join('.')}`,
        declareMember(doc, missing.objectPath, missing.key, EMPTY),
        true,
      );
  }
  return [];
};

/** An alias maps to a key the input does not declare: declare it. */
const aliasTargetUnknown: Fixer = (doc, at) => {
  const target = doc.valueAt(at);
  if (typeof target !== 'string') return [];
  const missing = undeclaredArgument(doc, target.split('.'));
  return missing
    ? fix(`Declare "${missing.key}" in ${missing.objectPath.join('.')}`, declareMember(doc, missing.objectPath, missing.key, EMPTY), true)
    : [];
};

/** A version that does not go up: the next patch after the served one. */
const versionNotIncreased: Fixer = (doc, _at, { previousVersion }) => {
  const next = previousVersion && semver.valid(previousVersion) ? semver.inc(previousVersion, 'patch') : null;
  if (!next || typeof doc.valueAt(['version']) !== 'string') return [];
  const written = valueText(doc, ['version']);
  const quote = /^["']/.test(written) ? written[0]! : doc.format === 'json' ? '"' : '';
  return fix(`Set version to ${next}`, replaceValue(doc, ['version'], `${quote}${next}${quote}`), true);
};

/** A tool pattern listed twice: drop the repeat. */
const duplicateToolPattern: Fixer = (doc, at) => {
  const index = at[at.length - 1];
  const pattern = doc.valueAt(at);
  if (typeof index !== 'number' || typeof pattern !== 'string') return [];
  return fix(`Remove the repeated "${pattern}"`, removeItem(doc, at.slice(0, -1), index), true);
};

const FIXERS: readonly { matches: (code: string) => boolean; fixer: Fixer }[] = [
  { matches: (code) => code.endsWith('_REQUIRED_NOT_IN_PROPERTIES'), fixer: requiredNotInProperties },
  { matches: (code) => code.endsWith('_MIN_GREATER_THAN_MAX'), fixer: minGreaterThanMax },
  { matches: (code) => code === 'CONTRACT_CONDITION_UNKNOWN_ARGUMENT', fixer: conditionUnknownArgument },
  { matches: (code) => code === 'CONTRACT_ALIAS_TARGET_UNKNOWN', fixer: aliasTargetUnknown },
  { matches: (code) => code.endsWith('_VERSION_NOT_INCREASED'), fixer: versionNotIncreased },
  { matches: (code) => code === 'POLICY_DUPLICATE_TOOL_PATTERN', fixer: duplicateToolPattern },
];

/** The codes some fix may resolve (the studio asks for fixes only for these). */
export function hasQuickFix(code: string): boolean {
  return FIXERS.some((f) => f.matches(code));
}

/** The fixes for one diagnostic; empty when none applies or the text no longer parses. */
export function quickFixes(input: QuickFixInput): QuickFix[] {
  const { diagnostic } = input;
  if (diagnostic.target === 'prompt' || !hasQuickFix(diagnostic.code)) return [];
  const doc = new EditableDocument(input.text, input.format);
  if (doc.value === undefined) return [];
  const at = segmentsOfJsonPath(doc.value, diagnostic.path);
  const fixes: QuickFix[] = [];
  for (const { matches, fixer } of FIXERS) if (matches(diagnostic.code)) fixes.push(...fixer(doc, at, input));
  return fixes;
}
