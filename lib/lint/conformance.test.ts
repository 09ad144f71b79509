import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conformanceDiagnostics } from './conformance';
import { parseDocument } from './parse-document';

describe('conformanceDiagnostics', () => {
  const Schema = z.object({ name: z.string(), items: z.array(z.object({ id: z.number(), tag: z.string() }).strict()) }).strict();

  it('underlines unknown keys, wrong values and the parent of a missing field', () => {
    const text = 'items:\n  - id: one\n    tag: a\n    extra: 1\n  - tag: b\nname: x\nsurprise: true\n';
    const parsed = parseDocument(text);
    const result = Schema.safeParse(parsed.value);
    expect(result.success).toBe(false);
    if (result.success) return;
    const found = conformanceDiagnostics(result.error.issues, parsed.value, parsed.locate, 'X_INVALID', 'warning');
    const summary = found.map((d) => [d.path, d.severity, d.range.startLine, d.range.startColumn]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ['$.items[0].id', 'warning', 2, 9],
        ['$.items[0].extra', 'warning', 4, 5],
        ['$.items[1].id', 'warning', 5, 5],
        ['$.surprise', 'warning', 7, 1],
      ]),
    );
    expect(found).toHaveLength(4);
    expect(found.find((d) => d.path === '$.items[1].id')!.message).toBe('Missing required field "id" in items[1].');
    expect(found.find((d) => d.path === '$.surprise')!.message).toBe('Unknown field "surprise" in the document.');
  });
});
