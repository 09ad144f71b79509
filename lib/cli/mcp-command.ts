import { MCP_SERVER_NAME_PATTERN } from '@/lib/mcp/tool-definition';
import type { GatewayLimits } from '@/lib/mcp/gateway/gateway-session';
import type { CliIo } from './cli-io';

/** Signals the proxy stops on as if its client went away: calls in flight still get their post record. */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
const STOP_GRACE_MS = 10_000;

export const MCP_USAGE = [
  'Usage: toolgate mcp proxy --server <name> [--url <toolgate url>] [--key <api key>]',
  '                          [--call-timeout <seconds>] [--max-result-bytes <n>] -- <command> [args...]',
  '',
  "Starts <command> as an MCP server over stdio and speaks MCP on this process's own stdin/stdout,",
  "with every tools/list and tools/call going through Toolgate's gate (contracts, policies,",
  'approvals, evidence). For MCP clients that launch servers: Claude Desktop, Cursor, agent SDKs.',
  "  --server            the server's name in Toolgate; its tools get contract ids <server>.<tool>",
  '  --url, --key        Toolgate and an API key with the validate scope (default: TOOLGATE_URL and',
  '                      TOOLGATE_API_KEY; not passed to the upstream, which as the same user',
  '                      can still read them from /proc: use a validate-only key)',
  '  --call-timeout      seconds the upstream may take for one tools/call (default 60)',
  '  --max-result-bytes  larger results are withheld from the model (default 1048576)',
  'Logs go to stderr only.',
].join('\n');

export interface McpProxyArgs {
  server: string;
  url: string;
  key: string;
  command: string;
  args: string[];
  limits: Partial<GatewayLimits>;
}

/** The proxy's arguments, or the usage problem to print. Pure, for tests. */
export function parseMcpProxyArgs(argv: readonly string[], env: Record<string, string | undefined>): McpProxyArgs | { problem: string } {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const child = split === -1 ? [] : argv.slice(split + 1);
  const values: Record<string, string> = {};
  for (let i = 0; i < own.length; i += 1) {
    const flag = own[i] as string;
    const name = flag.replace(/^--/, '');
    if (!['server', 'url', 'key', 'call-timeout', 'max-result-bytes'].includes(name) || !flag.startsWith('--'))
      return { problem: `unknown option ${flag}` };
    const value = own[i + 1];
    if (value === undefined) return { problem: `${flag} needs a value` };
    values[name] = value;
    i += 1;
  }
  const server = values.server;
  if (!server) return { problem: '--server is required' };
  if (!MCP_SERVER_NAME_PATTERN.test(server))
    return { problem: '--server must be lowercase letters, digits and _, starting with a letter, at most 40 characters' };
  const url = values.url ?? env.TOOLGATE_URL;
  if (!url || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    return { problem: "Toolgate's URL is needed: --url or TOOLGATE_URL (http or https)" };
  const key = values.key ?? env.TOOLGATE_API_KEY;
  if (!key) return { problem: 'an API key is needed: --key or TOOLGATE_API_KEY' };
  const command = child[0];
  if (!command) return { problem: "the upstream server's command goes after --" };
  const limits: Partial<GatewayLimits> = {};
  if (values['call-timeout'] !== undefined) {
    const seconds = Number(values['call-timeout']);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600)
      return { problem: '--call-timeout must be seconds between 0 and 3600' };
    limits.callTimeoutMs = Math.round(seconds * 1000);
  }
  if (values['max-result-bytes'] !== undefined) {
    const bytes = Number(values['max-result-bytes']);
    if (!Number.isInteger(bytes) || bytes < 1024 || bytes > 64 * 1024 * 1024)
      return { problem: '--max-result-bytes must be an integer from 1024 to 67108864' };
    limits.maxResultBytes = bytes;
  }
  return { server, url, key, command, args: child.slice(1), limits };
}

export async function runMcpCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h' || argv.length === 0) {
    io.stderr(`${MCP_USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  if (argv[0] !== 'proxy') {
    io.stderr(`toolgate mcp: unknown subcommand ${argv[0]}\n\n${MCP_USAGE}\n`);
    return 2;
  }
  const parsed = parseMcpProxyArgs(argv.slice(1), process.env);
  if ('problem' in parsed) {
    io.stderr(`toolgate mcp proxy: ${parsed.problem}\n\n${MCP_USAGE}\n`);
    return 2;
  }
  // stdout is the MCP stream from here on.
  const { logToStderrOnly } = await import('@/lib/log');
  logToStderrOnly();
  const { runStdioProxy } = await import('@/lib/mcp/gateway/stdio-proxy');
  const { DEFAULT_GATEWAY_LIMITS } = await import('@/lib/mcp/gateway/gateway-session');
  const stop = new Promise<void>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
      // A second signal, or calls that do not finish, end it the default way.
      setTimeout(() => process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15)), STOP_GRACE_MS).unref();
      resolve();
    };
    for (const name of STOP_SIGNALS) process.once(name, onSignal);
  });
  await runStdioProxy({
    stop,
    server: parsed.server,
    toolgateUrl: parsed.url,
    apiKey: parsed.key,
    command: parsed.command,
    args: parsed.args,
    env: process.env,
    limits: { ...DEFAULT_GATEWAY_LIMITS, ...parsed.limits },
  });
  return 0;
}
