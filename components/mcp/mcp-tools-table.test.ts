import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { McpServerView, McpToolView } from '@/lib/mcp/servers/mcp-server-view';
import { DriftQueue } from './drift-queue';
import { McpToolsTable } from './mcp-tools-table';

// Tool names and import notes come from the upstream. Drawn raw, `bidi\u202Etxt.exe` reads as
// "bidiexe.txt" (the override reverses what follows); the page shows the override as a badge.

const HIDDEN = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u0000-\u0008]/;

const tool = (name: string, patch: Partial<McpToolView> = {}): McpToolView => ({
  name,
  contract_id: 'fx.bidi_txt_exe',
  status: 'drifted',
  published_version: null,
  pinned_hash: 'a'.repeat(64),
  pinned_at: '2026-01-01T00:00:00.000Z',
  import_notes: [{ path: '$.inputSchema.properties.pa\u202Eth', message: 'Says \u200Bnothing\u2066 about\u0007 it.' }],
  drift: { hash: 'b'.repeat(64), classes: ['schema_widened'], seen_at: '2026-01-02T00:00:00.000Z' },
  ...patch,
});

const server = (tools: McpToolView[]): McpServerView => ({
  name: 'fx',
  transport: 'http',
  url: 'https://mcp.example/mcp',
  auth_header_name: null,
  list_unpublished: false,
  auto_accept_cosmetic: false,
  approval_wait_seconds: 30,
  endpoint: '/api/v1/mcp/fx',
  created_at: '2026-01-01T00:00:00.000Z',
  last_seen_at: null,
  tools,
});

/** The page's visible text: what is left of the markup once tags and attributes are gone. */
const visibleText = (html: string) => html.replace(/<[^>]*>/g, '');

describe('upstream text on the MCP servers page', () => {
  it('shows hidden and direction-changing characters in tool names and import notes as badges', () => {
    const html = renderToStaticMarkup(createElement(McpToolsTable, { server: 'fx', tools: [tool('bidi\u202Etxt.exe')] }));
    const text = visibleText(html);
    expect(text).not.toMatch(HIDDEN);
    expect(text).toContain('bidi&lt;U+202E&gt;txt.exe');
    expect(text).toContain('$.inputSchema.properties.pa&lt;U+202E&gt;th');
    expect(text).toContain('Says &lt;U+200B&gt;nothing&lt;U+2066&gt; about&lt;U+0007&gt; it.');
    expect(html).toContain('data-testid="hidden-character"');
  });

  it('shows them in the drift queue too', () => {
    const html = renderToStaticMarkup(createElement(DriftQueue, { servers: [server([tool('bidi\u202Etxt.exe')])] }));
    const text = visibleText(html);
    expect(text).not.toMatch(HIDDEN);
    expect(text).toContain('bidi&lt;U+202E&gt;txt.exe');
  });

  it('leaves a plain name as it is', () => {
    const html = renderToStaticMarkup(createElement(McpToolsTable, { server: 'fx', tools: [tool('echo', { import_notes: [] })] }));
    expect(visibleText(html)).toContain('echo');
    expect(html).not.toContain('hidden-character');
  });
});
