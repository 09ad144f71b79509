import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-syntax';
import { parseDocument } from './parse-document';

describe('findJsonSyntaxError', () => {
  it.each([
    ['{"x": }', 6, "Expected a value, found '}'"],
    ['{"a": 1,}', 7, 'Trailing comma'],
    ['[1, 2', 5, "Expected ',' or ']', found the end of the document"],
    ['', 0, 'Unexpected end of the document'],
    ['{"a": 1, "a": 2}', 9, 'Duplicate key "a"'],
    ["{'a': 1}", 1, "Expected a double-quoted property name, found '''"],
    ['{"a" 1}', 5, "Expected ':' after the property name, found '1'"],
    ['{"a": 1} x', 9, "Unexpected 'x' after the end of the document"],
    ['{"a": "b\nc"}', 8, 'Control character in string (use an escape such as \\n)'],
    ['{"a": tru}', 6, "Expected a value, found 't'"],
  ])('%j fails at offset %i', (text, offset, message) => {
    expect(findJsonSyntaxError(text)).toEqual({ offset, message });
  });

  it('agrees with JSON.parse on what is valid', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
        ),
        (text) => {
          let valid = true;
          try {
            JSON.parse(text);
          } catch {
            valid = false;
          }
          expect(findJsonSyntaxError(text) === null).toBe(valid);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('gives the editor the line and column of the error', () => {
    const parsed = parseDocument('{\n  "id": "a.b",\n  "version": \n}', 'json');
    expect(parsed.diagnostics[0]).toMatchObject({ code: 'DOCUMENT_PARSE_ERROR', range: { startLine: 4, startColumn: 1 } });
  });
});
