import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCResultResponse,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK `Server` checks every `tools/call` result against `CallToolResultSchema` before it
 * sends it, so a handler cannot answer with a broken result. The `malformed` tool therefore
 * answers with a valid result carrying this `_meta` key, and `FixtureTransport` rewrites that
 * one outgoing message into the broken shape the key names.
 */
export const MALFORMED_META_KEY = 'toolgate.fixture/malformed';
export const MALFORMED_SHAPES = ['content_string', 'bad_content_item', 'not_jsonrpc'] as const;
export type MalformedShape = (typeof MALFORMED_SHAPES)[number];

function malformedShapeOf(message: JSONRPCResultResponse): MalformedShape | undefined {
  const shape = message.result._meta?.[MALFORMED_META_KEY];
  return (MALFORMED_SHAPES as readonly unknown[]).includes(shape) ? (shape as MalformedShape) : undefined;
}

function brokenAnswer(id: RequestId, shape: MalformedShape): JSONRPCMessage {
  switch (shape) {
    case 'content_string':
      return { jsonrpc: '2.0', id, result: { content: 'this should have been an array of content blocks' } };
    case 'bad_content_item':
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'hologram', text: 42 }] } };
    case 'not_jsonrpc':
      // Neither a result nor an error: a client cannot even tell which request it answers.
      return { jsonrpc: '2.0', id, answer: 'not a JSON-RPC response' } as unknown as JSONRPCMessage;
  }
}

/**
 * Wraps the transport a fixture `Server` is connected to: passes everything through, except
 * that it rewrites marked results (above) and tells the fixture when the connection closes.
 */
export class FixtureTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly onClosed: () => void,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion = (version: string): void => {
    this.inner.setProtocolVersion?.(version);
  };

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      this.onClosed();
      this.onclose?.();
    };
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const shape = isJSONRPCResultResponse(message) ? malformedShapeOf(message) : undefined;
    if (shape === undefined) return this.inner.send(message, options);
    const id = (message as JSONRPCResultResponse).id;
    // Streamable HTTP routes a message that is not a response by `relatedRequestId` only.
    await this.inner.send(brokenAnswer(id, shape), { ...options, relatedRequestId: id });
  }

  async close(): Promise<void> {
    await this.inner.close();
  }
}
