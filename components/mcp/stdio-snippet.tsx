import { MCP_USAGE } from '@/lib/cli/mcp-command';

const CODE = 'block overflow-x-auto rounded-md bg-zinc-900 px-3 py-2 font-mono text-xs leading-relaxed whitespace-pre text-zinc-100';

/**
 * Where the proxy's entry point is on the agent's machine: a checkout of Toolgate with its
 * dependencies installed. `toolgate` is not a package on the npm registry, and npx installs a
 * missing package without asking when its input is not a terminal (an MCP client launching it),
 * so `npx toolgate` outside a checkout would run whatever someone published under that name,
 * with the API key and the upstream's tokens in its environment.
 */
export const PROXY_ENTRY = '/path/to/toolgate/bin/toolgate.mjs';

/**
 * How to put the gateway in front of a server an MCP client launches itself: the proxy runs on
 * the agent's machine, so the page can only show the command, never run it. `server` is a
 * placeholder until the proxy has reported once.
 */
export function StdioSnippet({ baseUrl, server }: { baseUrl: string; server?: string }) {
  const name = server ?? 'github';
  const upstream = server ? ['<command>', '[args…]'] : ['npx', '-y', '@modelcontextprotocol/server-github'];
  const command = `TOOLGATE_URL=${baseUrl} TOOLGATE_API_KEY=<a validate key> \\\n  node ${PROXY_ENTRY} mcp proxy --server ${name} -- ${upstream.join(' ')}`;
  // Claude Desktop's and Cursor's mcpServers entry: the client launches the proxy, which launches the upstream.
  const config = JSON.stringify(
    {
      mcpServers: {
        [name]: {
          command: 'node',
          args: [PROXY_ENTRY, 'mcp', 'proxy', '--server', name, '--', ...upstream],
          env: { TOOLGATE_URL: baseUrl, TOOLGATE_API_KEY: '<a validate key>' },
        },
      },
    },
    null,
    2,
  );
  return (
    <div className="space-y-2 text-sm" data-testid="stdio-snippet">
      <p className="text-zinc-600">
        Run the upstream through the stdio proxy (an API key with the <code>validate</code> scope, from <em>API keys</em>):
      </p>
      <code className={CODE}>{command}</code>
      <p className="text-xs text-zinc-500" data-testid="stdio-snippet-entry">
        <code>/path/to/toolgate</code> is a checkout of Toolgate on the agent&apos;s machine, with <code>npm install</code> run in it. Do
        not write <code>npx toolgate</code> there: no package of that name is Toolgate&apos;s, and npx would fetch one from the registry.
      </p>
      <details className="text-zinc-600">
        <summary className="cursor-pointer select-none">In Claude Desktop or Cursor (mcpServers)</summary>
        <code className={`${CODE} mt-2`}>{config}</code>
      </details>
      <details className="text-zinc-600">
        <summary className="cursor-pointer select-none">Every option of toolgate mcp proxy</summary>
        <code className={`${CODE} mt-2`}>{MCP_USAGE}</code>
      </details>
    </div>
  );
}
