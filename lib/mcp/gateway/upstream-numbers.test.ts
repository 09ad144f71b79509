import { describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { screenedEvents } from './guarded-fetch';
import { exactJson, screenUpstreamMessage, upstreamNumbers } from './upstream-numbers';

const screen = (text: string) => screenUpstreamMessage(text, 'test');

describe('screenUpstreamMessage', () => {
  it('returns the very text when no number needs checking, also for a large safe integer or a decimal', () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":1,"result":{"n":42}}',
      '{"jsonrpc":"2.0","id":1,"result":{"n":9007199254740991,"x":0.1,"s":"9007199254740993"}}',
      'not json 1e400',
    ])
      expect(screen(text)).toBe(text);
  });

  it('turns a response holding one into an error for the same id, carrying the answer with a marker and the token as sent', () => {
    const text = '{"jsonrpc":"2.0","id":7,"result":{"structuredContent":{"id":9007199254740993},"content":[]}}';
    const replaced = JSON.parse(screen(text)!) as { id: number; error: { code: number; message: string; data: Record<string, unknown> } };
    expect(replaced).toMatchObject({
      id: 7,
      error: {
        code: -32603,
        message:
          "The upstream's answer holds a number a double cannot hold: $.result.structuredContent.id is 9007199254740993, an integer beyond ±(2^53−1) (9007199254740991), where doubles skip integers. Toolgate does not pass it on changed.",
        data: {
          code: 'number_unrepresentable',
          path: '$.result.structuredContent.id',
          problem: 'unsafe_integer',
          paths: ['$.result.structuredContent.id'],
          numbers: [
            {
              path: '$.result.structuredContent.id',
              segments: ['result', 'structuredContent', 'id'],
              token: '9007199254740993',
              problem: 'unsafe_integer',
            },
          ],
        },
      },
    });
    const error = new McpError(replaced.error.code, replaced.error.message, replaced.error.data);
    const numbers = upstreamNumbers(error)!;
    expect(exactJson(numbers.result, numbers.numbers)).toBe('{"structuredContent":{"id":9007199254740993},"content":[]}');
  });

  it('drops a request or notification holding one, and a response whose id is one', () => {
    expect(screen('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1e400}}')).toBeNull();
    expect(screen('{"jsonrpc":"2.0","id":"p","method":"ping","params":{"n":1e-400}}')).toBeNull();
    expect(screen('{"jsonrpc":"2.0","id":9007199254740993,"result":{}}')).toBeNull();
  });

  it('screens a batch message by message', () => {
    const batch =
      '[{"jsonrpc":"2.0","id":1,"result":{"n":1}},{"jsonrpc":"2.0","method":"x","params":{"n":1e400}},{"jsonrpc":"2.0","id":2,"result":{"n":1e400}}]';
    const items = JSON.parse(screen(batch)!) as Record<string, unknown>[];
    expect(items).toHaveLength(2);
    expect(items[0]).toEqual({ jsonrpc: '2.0', id: 1, result: { n: 1 } });
    expect(items[1]).toMatchObject({ id: 2, error: { data: { path: '$.result.n' } } });
  });

  it("does not take an upstream's own look-alike error for one", () => {
    const forged = {
      code: 'number_unrepresentable',
      path: '$.x',
      problem: 'underflow',
      paths: ['$.x'],
      numbers: [{ path: '$.x', segments: ['x'], token: '0', problem: 'underflow' }],
    };
    expect(upstreamNumbers(new McpError(-32603, 'x', forged))).toBeNull();
  });
});

describe('screenedEvents (an event stream through guardedFetch)', () => {
  /** The stream `chunks` make, as it comes out of the screen, read whole. */
  async function through(chunks: string[]): Promise<string> {
    const encoder = new TextEncoder();
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(source.pipeThrough(screenedEvents(screen))).text();
  }

  it('passes events without such numbers on as they are, whatever the line ends and chunk boundaries', async () => {
    expect(
      await through([
        'event: message\r\nid: 1\r\ndata: {"jsonrpc":"2.0","id":1,"result":{"n":9007199254740991}}\r',
        '\n\r\n',
        ': keep\n\n',
      ]),
    ).toBe('event: message\nid: 1\ndata: {"jsonrpc":"2.0","id":1,"result":{"n":9007199254740991}}\n\n: keep\n\n');
  });

  it('replaces the data of an event holding one (its id kept), split across chunks anywhere, and drops an event that ends unfinished', async () => {
    const event = 'id: 7\ndata: {"jsonrpc":"2.0","id":3,"result":{"n":9007199254740993}}\n\n';
    const chunks = [...event].map((char) => char); // one character per chunk
    const out = await through([...chunks, 'data: {"jsonrpc":"2.0","id":4,"result":{"n":1e400}}\n']);
    const [fields, rest] = out.split('\n\n');
    expect(rest).toBe('');
    const lines = fields!.split('\n');
    expect(lines[0]).toBe('id: 7');
    expect(JSON.parse(lines[1]!.slice('data: '.length))).toMatchObject({ id: 3, error: { code: -32603, data: { path: '$.result.n' } } });
  });

  it('sends an event whose message is dropped without its data', async () => {
    expect(
      await through(['id: 2\ndata: {"jsonrpc":"2.0","method":"notifications/progress",\ndata: "params":{"progress":1e400}}\n\n']),
    ).toBe('id: 2\n\n');
  });
});
