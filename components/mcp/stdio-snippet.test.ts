import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PROXY_ENTRY, StdioSnippet } from './stdio-snippet';

// `toolgate` is no package on the npm registry, and npx installs a missing package without asking
// when its stdin is not a terminal, as when Claude Desktop or Cursor launches it: a snippet saying
// `npx toolgate` would run whatever was published under that name, with the API key in its
// environment. The snippets start the checkout's entry point with node instead.

const decode = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function codeBlocks(server?: string): string[] {
  const html = renderToStaticMarkup(createElement(StdioSnippet, { baseUrl: 'https://toolgate.example.com', server }));
  return [...html.matchAll(/<code class="block[^"]*"[^>]*>([\s\S]*?)<\/code>/g)].map((m) => decode(m[1] as string));
}

describe('the stdio proxy snippets on the MCP servers page', () => {
  for (const server of [undefined, 'github']) {
    it(`start the proxy with node from a checkout, never npx toolgate (${server ? 'a reported server' : 'no server yet'})`, () => {
      const [command, config] = codeBlocks(server);
      expect(command).toContain(`node ${PROXY_ENTRY} mcp proxy --server github -- `);
      expect(command).toContain('TOOLGATE_URL=https://toolgate.example.com ');
      const entry = (JSON.parse(config as string) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers.github;
      expect(entry?.command).toBe('node');
      expect(entry?.args.slice(0, 5)).toEqual([PROXY_ENTRY, 'mcp', 'proxy', '--server', 'github']);
      for (const block of codeBlocks(server)) expect(block).not.toMatch(/npx\s+(-\S+\s+)*toolgate\b/);
    });
  }
});
