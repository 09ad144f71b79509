import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { document, random } from './yaml-fast-document-generator';
import { expectSameAsFull } from './yaml-fast-test-helpers';

describe('parseYamlFast', () => {
  it('gives exactly what the yaml package gives, or stands aside (fuzzed block documents)', () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        runs++;
        if (expectSameAsFull(document(random(seed)))) accepted++;
      }),
      { numRuns: 3000 },
    );
    // The generator aims at the fast path's edges; a good share of documents must still be
    // inside it (about 21%), or the comparison above would be checking little.
    expect(accepted / runs).toBeGreaterThan(0.1);
  });

  it('gives exactly what the yaml package gives, or stands aside (random short texts)', () => {
    const unit = fc.constantFrom(
      'a',
      'b',
      '1',
      ' ',
      ' ',
      '\n',
      '\n',
      ':',
      ': ',
      '- ',
      '-',
      '#',
      ' #',
      "'",
      '"',
      '\\',
      '.',
      '~',
      'e',
      'null',
      'true',
      '0x',
      '[',
      '{',
      ',',
      '  ',
      '[]',
      '{}',
      ']',
      '}',
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        if (expectSameAsFull(text)) accepted++;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('gives exactly what the yaml package gives for yaml.stringify output of arbitrary data', () => {
    let accepted = 0;
    fc.assert(
      // lineWidth 0 is the studio's formatting (components/studio/document-format.ts): no folding.
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 }), { minKeys: 1 }), fc.constantFrom(80, 0), (data, lineWidth) => {
        if (expectSameAsFull(stringify(data, { lineWidth }))) accepted++;
      }),
      { numRuns: 500 },
    );
    expect(accepted).toBeGreaterThan(150);
  });
});
