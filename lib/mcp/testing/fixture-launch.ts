import path from 'node:path';
import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.resolve(import.meta.dirname, '..', '..', '..');

/** The fixture's stdio entry. */
export const FIXTURE_STDIO_SCRIPT = path.join(root, 'lib/mcp/testing/fixture-server-stdio.ts');
/** `@modelcontextprotocol/server-everything`'s launcher: `node <it> stdio|streamableHttp`. */
export const EVERYTHING_SCRIPT = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
/** Where server-everything's Streamable HTTP transport serves MCP (its dist/transports/streamableHttp.js). */
export const EVERYTHING_MCP_PATH = '/mcp';

/**
 * `StdioClientTransport` parameters that start the fixture over stdio as one node process with
 * tsx loaded: `npx tsx` would add wrapper processes that a kill of the client's child can orphan.
 */
export function fixtureStdioParameters(options: { toolsFile?: string; callsFile?: string } = {}): StdioServerParameters {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE_STDIO_SCRIPT],
    cwd: root,
    env: {
      ...(options.toolsFile ? { FIXTURE_TOOLS_FILE: options.toolsFile } : {}),
      ...(options.callsFile ? { FIXTURE_CALLS_FILE: options.callsFile } : {}),
    },
    stderr: 'pipe',
  };
}

/** `StdioClientTransport` parameters that start server-everything over stdio. */
export function everythingStdioParameters(): StdioServerParameters {
  return { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio'], cwd: root, stderr: 'pipe' };
}
