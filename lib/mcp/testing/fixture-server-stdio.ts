/**
 * The fixture MCP server over stdio: `npx tsx lib/mcp/testing/fixture-server-stdio.ts`, with
 * FIXTURE_TOOLS_FILE and FIXTURE_CALLS_FILE in the environment (both optional). stdout carries
 * MCP only; anything else goes to stderr. `crash` exits the process with code 1.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createFixtureServer } from './fixture-server';

const server = createFixtureServer({
  toolsFile: process.env.FIXTURE_TOOLS_FILE || undefined,
  callsFile: process.env.FIXTURE_CALLS_FILE || undefined,
  crash: () => {
    process.stderr.write('fixture: crashing as asked\n');
    process.exit(1);
  },
});
server.onerror = (error) => process.stderr.write(`fixture: ${error.message}\n`);

await server.connect(new StdioServerTransport());
process.stderr.write('fixture: serving MCP on stdio\n');
