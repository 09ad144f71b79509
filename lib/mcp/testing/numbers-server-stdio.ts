/**
 * The numbers server (numbers-server.ts) over stdio: `node --import tsx lib/mcp/testing/numbers-server-stdio.ts`,
 * with NUMBERS_LIST_TOKEN in the environment to put that number in its tools/list.
 */
import { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createNumbersServer, rawNumbers } from './numbers-server';

// The SDK writes each message with one write call: a marker is never split.
const stdout = new Writable({
  write(chunk: Buffer | string, _encoding, callback) {
    process.stdout.write(rawNumbers(chunk.toString()), callback);
  },
});
const server = createNumbersServer({ listToken: process.env.NUMBERS_LIST_TOKEN || undefined });
await server.connect(new StdioServerTransport(process.stdin, stdout));
process.stderr.write('numbers fixture: serving MCP on stdio\n');
