import { describe, expect, it } from 'vitest';
import { DEMO_POLICIES, DEMO_SURFACE } from '../seed/demo-documents';
import { lookupOrderContract } from '../contracts/examples';
import { lintDocument } from './index';
import type { DocumentKind } from './index';

// A name or id that does not match its pattern is told what one looks like, with an example;
// Zod's own message quoted the regular expression ("must match pattern /^[a-z][a-z0-9_]*(\.…$/").

function messagesAt(kind: DocumentKind, document: unknown, path: string): string[] {
  return lintDocument(kind, JSON.stringify(document), { format: 'json' })
    .diagnostics.filter((d) => d.path === path)
    .map((d) => d.message);
}

describe('schema messages for names and ids', () => {
  const cases: [string, DocumentKind, unknown, string, RegExp][] = [
    ['a contract id', 'contract', { ...lookupOrderContract, id: 'Orders' }, '$.id', /Expected a tool id: .*e\.g\. `orders\.lookup`/],
    ['a policy id', 'policy', { ...DEMO_POLICIES[0], id: 'Support' }, '$.id', /Expected an id: lowercase letters/],
    ['a surface id', 'surface', { ...DEMO_SURFACE, id: 'Support Agent' }, '$.id', /Expected an id: lowercase letters/],
    [
      'a surface tool name',
      'surface',
      { ...DEMO_SURFACE, tools: [{ name: '9 bad', description: 'x' }] },
      '$.tools[0].name',
      /Expected a tool name: /,
    ],
    ['a policy version', 'policy', { ...DEMO_POLICIES[0], version: '1.0' }, '$.version', /Expected a semantic version such as `1\.2\.0`/],
  ];
  for (const [what, kind, document, path, expected] of cases) {
    it(`${what}: says what one looks like, not the pattern`, () => {
      const messages = messagesAt(kind, document, path);
      expect(messages.length, JSON.stringify(messages)).toBeGreaterThan(0);
      expect(messages.join(' ')).toMatch(expected);
      expect(messages.join(' ')).not.toMatch(/must match pattern/);
    });
  }
});
