import { describe, expect, it } from 'vitest';
import { parseMcpProxyArgs, runMcpCommand } from './mcp-command';

const env = { TOOLGATE_URL: 'http://localhost:3000', TOOLGATE_API_KEY: 'tg_key' };

describe('toolgate mcp proxy arguments', () => {
  it('takes the server, Toolgate from the environment, and everything after -- as the upstream command', () => {
    expect(parseMcpProxyArgs(['--server', 'github', '--', 'npx', '-y', '@modelcontextprotocol/server-github', '--flag'], env)).toEqual({
      server: 'github',
      url: 'http://localhost:3000',
      key: 'tg_key',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github', '--flag'],
      limits: {},
    });
    expect(
      parseMcpProxyArgs(
        [
          '--server',
          'fs',
          '--url',
          'https://tg.example',
          '--key',
          'k2',
          '--call-timeout',
          '1.5',
          '--max-result-bytes',
          '2048',
          '--',
          'srv',
        ],
        {},
      ),
    ).toMatchObject({ url: 'https://tg.example', key: 'k2', limits: { callTimeoutMs: 1500, maxResultBytes: 2048 } });
  });

  it('says what is wrong instead of starting', () => {
    const problem = (argv: string[], e: Record<string, string> = env) => {
      const parsed = parseMcpProxyArgs(argv, e);
      return 'problem' in parsed ? parsed.problem : null;
    };
    expect(problem(['--', 'srv'])).toMatch(/--server is required/);
    expect(problem(['--server', 'Bad-Name', '--', 'srv'])).toMatch(/lowercase/);
    expect(problem(['--server', 'gh'])).toMatch(/command goes after --/);
    expect(problem(['--server', 'gh', '--', 'srv'], {})).toMatch(/URL is needed/);
    expect(problem(['--server', 'gh', '--url', 'file:///etc/passwd', '--', 'srv'], {})).toMatch(/URL is needed/);
    expect(problem(['--server', 'gh', '--', 'srv'], { TOOLGATE_URL: 'http://x' })).toMatch(/API key is needed/);
    expect(problem(['--server', 'gh', '--call-timeout', '-1', '--', 'srv'])).toMatch(/call-timeout/);
    expect(problem(['--server', 'gh', '--max-result-bytes', '1e9', '--', 'srv'])).toMatch(/max-result-bytes/);
    expect(problem(['--server', 'gh', '--verbose', '--', 'srv'])).toMatch(/unknown option --verbose/);
    expect(problem(['--server'])).toMatch(/needs a value/);
  });

  it('prints usage on stderr and exits 2 on a usage error', async () => {
    let err = '';
    const io = { readFile: async () => '', stdout: () => {}, stderr: (text: string) => void (err += text) };
    expect(await runMcpCommand(['proxy', '--server', 'gh'], io)).toBe(2);
    expect(err).toMatch(/^toolgate mcp proxy: .+\n\nUsage: toolgate mcp proxy --server/);
    expect(await runMcpCommand(['serve'], io)).toBe(2);
    expect(await runMcpCommand(['--help'], io)).toBe(0);
  });
});
