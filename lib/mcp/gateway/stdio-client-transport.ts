import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { screenUpstreamMessage } from './upstream-numbers';

/**
 * The SDK's ReadBuffer (lines of a child's stdout, one JSON-RPC message each, with the same
 * size bound), except that each line is screened for numbers a double cannot hold before it is
 * parsed (upstream-numbers.ts): the SDK's own JSON.parse changed them.
 */
class ScreenedReadBuffer {
  private buffer: Buffer | undefined;

  constructor(
    private readonly maxBufferSize: number,
    private readonly upstream: string,
  ) {}

  append(chunk: Buffer): void {
    const size = (this.buffer?.length ?? 0) + chunk.length;
    if (size > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  readMessage(): JSONRPCMessage | null {
    for (;;) {
      if (!this.buffer) return null;
      const index = this.buffer.indexOf('\n');
      if (index === -1) return null;
      const line = this.buffer.toString('utf8', 0, index).replace(/\r$/, '');
      this.buffer = this.buffer.subarray(index + 1);
      const screened = screenUpstreamMessage(line, this.upstream);
      if (screened !== null) return deserializeMessage(screened);
    }
  }

  clear(): void {
    this.buffer = undefined;
  }
}

/**
 * The SDK's StdioClientTransport (it starts and stops the child), reading the child's messages
 * through ScreenedReadBuffer. The SDK keeps its reader in a private field; if a new SDK version
 * renames it, this fails at construction instead of letting changed numbers through.
 */
export class ScreenedStdioClientTransport extends StdioClientTransport {
  constructor(server: StdioServerParameters, upstream: string) {
    super(server);
    const self = this as unknown as { _readBuffer?: unknown };
    if (!self._readBuffer)
      throw new Error('StdioClientTransport has no _readBuffer: the MCP SDK changed; update stdio-client-transport.ts');
    self._readBuffer = new ScreenedReadBuffer(server.maxBufferSize ?? STDIO_DEFAULT_MAX_BUFFER_SIZE, upstream);
  }
}
