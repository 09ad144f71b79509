import { describe, expect, it } from 'vitest';
import { ToolgateError, type ToolgateClient } from '@toolgate/sdk';
import { MAX_UPSTREAM_TOOLS } from '../tool-definition';
import { CallRefusedError } from './gate-engine';
import { createHttpEngine } from './http-engine';

describe('the stdio proxy’s engine', () => {
  it('reports only the tools Toolgate uses, so an upstream listing thousands in one page still works', async () => {
    const sent: unknown[][] = [];
    const client = {
      reportMcpTools: async (_server: string, tools: unknown[]) => {
        sent.push(tools);
        return { server: {}, tools: [] };
      },
    } as unknown as ToolgateClient;
    const engine = createHttpEngine({ client, apiKey: 'tg_test', server: 'big' });
    const listed = Array.from({ length: 5000 }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: 'object' } }));
    await engine.reportTools(listed);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toHaveLength(MAX_UPSTREAM_TOOLS);
    expect((sent[0]![0] as { name: string }).name).toBe('tool_0');
  });

  it('tells a call Toolgate refused as sent (400) from one it could not check (503)', async () => {
    const failing = (status: number, code: string) =>
      createHttpEngine({
        client: {
          validatePre: async () => {
            throw new ToolgateError({ status, code, message: `answer ${status}` });
          },
        } as unknown as ToolgateClient,
        apiKey: 'tg_test',
        server: 's',
      });
    const request = { tool: 'a.b', call_id: 'c1', arguments: {} };
    await expect(failing(400, 'bad_request').pre(request, null)).rejects.toBeInstanceOf(CallRefusedError);
    await expect(failing(503, 'unavailable').pre(request, null)).rejects.toBeInstanceOf(ToolgateError);
    await expect(failing(503, 'unavailable').pre(request, null)).rejects.not.toBeInstanceOf(CallRefusedError);
  });
});
