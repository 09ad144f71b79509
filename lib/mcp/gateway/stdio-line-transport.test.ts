import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { StdioLineTransport } from './stdio-line-transport';

async function open(maxMessageBytes?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new StdioLineTransport(stdin, stdout, maxMessageBytes);
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  let written = '';
  stdout.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const answers = () =>
    written
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  const send = async (text: string | Buffer) => {
    stdin.write(text);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { transport, received, answers, send, written: () => written };
}

const call = (args: string, id: number | string = 1) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"get-sum","arguments":${args}}}\n`;

describe('StdioLineTransport', () => {
  it('passes JSON-RPC messages on as they are, also split across chunks and with CRLF', async () => {
    const t = await open();
    const line = call('{"a":1,"b":0.1}');
    await t.send(line.slice(0, 20));
    await t.send(`${line.slice(20, -1)}\r\n\n`);
    expect(t.received).toEqual([JSON.parse(line)]);
    expect(t.answers()).toEqual([]);
    // 9007199254740991 is the largest safe integer: held exactly, so it passes.
    await t.send(call('{"a":9007199254740991,"b":5e-324}', 2));
    expect(t.received).toHaveLength(2);
  });

  it('answers a line that is not JSON with a parse error (id null) and keeps serving', async () => {
    const t = await open();
    await t.send('hello there\n');
    expect(t.answers()).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } }]);
    await t.send(call('{"a":1,"b":2}'));
    expect(t.received).toHaveLength(1);
  });

  it('answers JSON that is not JSON-RPC with an invalid request, with its id when it has one', async () => {
    const t = await open();
    await t.send('{"id":7,"hello":"world"}\n42\n');
    expect(t.answers()).toMatchObject([
      { id: 7, error: { code: -32600 } },
      { id: null, error: { code: -32600 } },
    ]);
    expect(t.received).toEqual([]);
  });

  it('refuses a batch: an error per request id, or one with id null when it has none', async () => {
    const t = await open();
    const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
    await t.send(`${JSON.stringify([ping(1), { jsonrpc: '2.0', method: 'notifications/initialized' }, ping('b')])}\n`);
    await t.send('[]\n');
    await t.send(`[{"jsonrpc":"2.0","method":"notifications/initialized"}]\n`);
    const [batch, empty, notifications] = t.answers() as [unknown[], unknown, unknown];
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32600, message: expect.stringMatching(/batches are not supported/) } },
      { jsonrpc: '2.0', id: 'b', error: { code: -32600, message: expect.stringMatching(/batches are not supported/) } },
    ]);
    expect(empty).toMatchObject({ id: null, error: { code: -32600 } });
    expect(notifications).toMatchObject({ id: null, error: { code: -32600 } });
    expect(t.received).toEqual([]);
  });

  it('discards a message over the limit as it streams in, answers it with its id, and keeps serving', async () => {
    const t = await open(1000);
    const padding = 'x'.repeat(3000);
    // The TypeScript SDK writes the id last, most other clients first.
    const idLast = `{"method":"tools/call","params":{"name":"echo","arguments":{"text":"${padding}","id":99}},"jsonrpc":"2.0","id":41}\n`;
    for (let i = 0; i < idLast.length; i += 400) await t.send(idLast.slice(i, i + 400));
    await t.send(`{"jsonrpc":"2.0","id":"s-42","method":"tools/call","params":{"name":"echo","arguments":{"text":"${padding}"}}}\n`);
    await t.send(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"${padding}","id":5}}}\n`);
    expect(t.answers()).toEqual([
      {
        jsonrpc: '2.0',
        id: 41,
        error: { code: -32600, message: expect.stringMatching(/is 3\d{3} bytes, over the proxy's limit of 1000/) },
      },
      { jsonrpc: '2.0', id: 's-42', error: { code: -32600, message: expect.any(String) } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
    ]);
    await t.send(call('{"a":1,"b":2}'));
    expect(t.received).toHaveLength(1);
  });

  it('refuses a tools/call holding a number a double cannot hold, as validate/pre would, and never passes it on', async () => {
    const t = await open();
    await t.send(call('{"a":1e-400,"b":2}', 1));
    await t.send(call('{"a":1e400,"b":2}', 2));
    await t.send(call('{"a":9007199254740993,"b":2}', 3));
    expect(t.received).toEqual([]);
    const answers = t.answers() as { id: number; result: { isError: boolean; content: { text: string }[] } }[];
    expect(answers.map((a) => [a.id, a.result.isError])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    const [underflow, infinite, unsafe] = answers.map((a) => a.result.content[0]!.text);
    expect(underflow).toBe(
      'The call to get-sum was refused with 1 problem. (1) AXAG_NUMBER_UNREPRESENTABLE at $.arguments.a: $.arguments.a is 1e-400, not zero, but it would read as 0. Fix: Send $.arguments.a as a string, e.g. "1e-400". Call get-sum again with each number at the paths above sent as a string.',
    );
    expect(infinite).toContain('$.arguments.a is 1e400, beyond the largest double');
    expect(unsafe).toContain('$.arguments.a is 9007199254740993, an integer beyond ±(2^53−1)');
  });

  it('answers other requests with such numbers with invalid params, an unusable id with id null, and drops notifications', async () => {
    const t = await open();
    await t.send('{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"c","_meta":{"n":1e16}}}\n');
    await t.send('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n');
    await t.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740993}}\n');
    expect(t.answers()).toEqual([
      {
        jsonrpc: '2.0',
        id: 4,
        error: {
          code: -32602,
          message: expect.stringMatching(/^\$\.params\._meta\.n is 1e16, an integer beyond/),
          data: { code: 'number_unrepresentable', path: '$.params._meta.n', problem: 'unsafe_integer', paths: ['$.params._meta.n'] },
        },
      },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/id is a number a double cannot hold/) } },
    ]);
    expect(t.received).toEqual([]);
  });
});
