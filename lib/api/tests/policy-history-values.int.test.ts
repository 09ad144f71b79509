// What a call adds to its history, decided on real validate/pre calls: an object value under
// called_with is one value whatever the order of its keys, and a negative amount spends nothing
// of a budget (it never tops one back up).
import { beforeEach, describe, expect, it } from 'vitest';
import { publishContract } from '@/lib/testing/fixtures';
import {
  counted,
  createHistoryTenant,
  decide,
  pre,
  publishPolicyDocument,
  countingContract,
  type HistoryTenant,
} from '@/lib/testing/history-fixtures';
import type { ToolContract } from '@/lib/contracts/contract-schema';

let t: HistoryTenant;

/** A counting tool whose amount may be any number and which takes an object `ref`. */
function ledgerContract(id: string): ToolContract {
  const base = countingContract(id);
  return {
    ...base,
    input: {
      type: 'object',
      required: ['account_id'],
      additionalProperties: false,
      properties: {
        account_id: { type: 'string', minLength: 1, maxLength: 64 },
        amount: { type: 'number', minimum: -1_000_000, maximum: 1_000_000 },
        ref: { type: 'object' },
      },
    },
  };
}

beforeEach(async () => {
  t = await createHistoryTenant();
  await publishContract(t.tenant.id, ledgerContract('ledger.reserve'));
  await publishContract(t.tenant.id, ledgerContract('ledger.release'));
});

describe('history.called_with on an object value', () => {
  it('matches the same object with its keys in another order, and not another object', async () => {
    await publishPolicyDocument(t, {
      id: 'reserve-first',
      version: '1.0.0',
      rules: [
        {
          id: 'reserve-first-rule',
          tools: ['ledger.release'],
          when: "!history.called_with('ledger.reserve', 'ref', 'session', '1h')",
          decision: 'deny',
        },
      ],
    });
    const run = (tool: string, ref: Record<string, unknown>) => decide(t, { tool, session: 's1', args: { account_id: 'acc-1', ref } });
    expect((await run('ledger.reserve', { order: 'o1', line: 2 })).decision).toBe('allow');
    expect((await run('ledger.release', { line: 2, order: 'o1' })).decision).toBe('allow');
    expect((await run('ledger.release', { order: 'o1', line: 2 })).decision).toBe('allow');
    expect((await run('ledger.release', { order: 'o1', line: 3 })).decision).toBe('deny');
  });
});

describe('a max_sum budget and negative amounts', () => {
  it('is not topped back up by a negative amount: after a -1000 call a 500 call is still refused', async () => {
    await publishPolicyDocument(t, {
      id: 'limits',
      version: '1.0.0',
      limits: [{ id: 'budget', tools: ['ledger.reserve'], per: 'user', window: '1d', max_sum: { path: 'amount', value: 100 } }],
    });
    const reserve = (amount: number) => pre(t, { tool: 'ledger.reserve', user: 'u1', args: { account_id: 'acc-1', amount } });
    // A negative amount passes (it asks for nothing) and spends nothing.
    expect((await reserve(-1000)).body.decision).toBe('allow');
    const refused = await reserve(500);
    expect(refused.body.decision).toBe('deny');
    expect(refused.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_BUDGET_EXCEEDED']);
    expect(refused.body.errors[0].details).toMatchObject({ limit_id: 'budget', max: 100, used: 0, remaining: 100 });
    expect((await reserve(-0)).body.decision).toBe('allow');
    expect((await reserve(100)).body.decision).toBe('allow');
    expect((await reserve(1)).body.errors[0].code).toBe('AXAG_BUDGET_EXCEEDED');
    // Three calls counted, adding up to the 100 spent.
    expect(await counted(t.tenant.id)).toMatchObject({ count: 3, total: 100 });
  });
});
