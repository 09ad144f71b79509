import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cases, compile } from './testing/agreement-cases.ts';
import { inputsFor } from './testing/agreement-generators.ts';

/**
 * The agent checks arguments with Zod, the server with Ajv against the contract generated from
 * the same Zod schema. This file holds the two to the same verdict on random inputs: valid
 * shapes, mutated ones and plain random JSON, always after a JSON round trip (which is what
 * the server receives).
 */

describe('Zod (agent) and Ajv (server) agree on every input', () => {
  for (const testCase of cases) {
    it(testCase.name, () => {
      const contract = compile(testCase.schema);
      let accepted = 0;
      let total = 0;
      fc.assert(
        fc.property(inputsFor(testCase.valid), (value) => {
          const zodOk = testCase.schema.safeParse(value).success;
          const serverIssues = contract.checkInput(value);
          total += 1;
          if (zodOk) accepted += 1;
          if (zodOk !== (serverIssues.length === 0)) {
            throw new Error(
              `disagreement: zod ${zodOk ? 'accepts' : 'refuses'}, server ${serverIssues.length === 0 ? 'accepts' : `refuses (${serverIssues.map((i) => `${i.code} ${i.message}`).join('; ')})`}`,
            );
          }
        }),
        { numRuns: 700 },
      );
      // Both verdicts must come up often, or agreement would be cheap.
      // Observed: 0.24 to 0.58 of the inputs are accepted, depending on the case.
      expect(accepted / total).toBeGreaterThan(0.15);
      expect(accepted / total).toBeLessThan(0.85);
    });
  }
});
