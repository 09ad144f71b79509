import { describe, expect, it } from 'vitest';
import { parseNewServerForm, parseServerChangesForm } from './server-form';

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe('the register form', () => {
  it('reads a full form into the API input, trimming text and ticking boxes', () => {
    expect(
      parseNewServerForm(
        form({
          name: ' github ',
          url: 'https://mcp.example.com/mcp',
          auth_header_name: 'Authorization',
          auth_header_value: 'Bearer abc',
          list_unpublished: 'on',
          approval_wait_seconds: '5',
        }),
      ),
    ).toEqual({
      ok: true,
      value: {
        name: 'github',
        url: 'https://mcp.example.com/mcp',
        auth_header: { name: 'Authorization', value: 'Bearer abc' },
        list_unpublished: true,
        auto_accept_cosmetic: false,
        approval_wait_seconds: 5,
      },
    });
  });

  it('leaves out the header and the wait when they are blank (the defaults apply)', () => {
    expect(parseNewServerForm(form({ name: 'fx', url: 'http://10.0.0.1/mcp', approval_wait_seconds: '' }))).toEqual({
      ok: true,
      value: { name: 'fx', url: 'http://10.0.0.1/mcp', list_unpublished: false, auto_accept_cosmetic: false },
    });
  });

  it('names the field at fault', () => {
    const problem = (fields: Record<string, string>) => {
      const parsed = parseNewServerForm(form({ name: 'fx', url: 'https://mcp.example.com/mcp', ...fields }));
      return parsed.ok ? null : parsed.message;
    };
    expect(problem({ name: 'Bad Name' })).toMatch(/^Name: lowercase letters/);
    expect(problem({ url: 'ftp://mcp.example.com' })).toBe('URL: must be an http or https URL');
    expect(problem({ url: 'https://user:pw@mcp.example.com/mcp' })).toMatch(
      /^URL: must not carry credentials; give them as the auth header/,
    );
    expect(problem({ auth_header_name: 'Authorization' })).toMatch(/^Auth header: give both/);
    expect(problem({ auth_header_name: 'Bad Header', auth_header_value: 'x' })).toBe('Auth header name: must be an HTTP header name');
    expect(problem({ approval_wait_seconds: 'soon' })).toMatch(/^Approval wait: a whole number/);
    expect(problem({ approval_wait_seconds: '301' })).toMatch(/^Approval wait: /);
    expect(problem({ approval_wait_seconds: '-1' })).toMatch(/^Approval wait: a whole number/);
  });
});

describe('the settings form', () => {
  it('sends every setting shown, an unticked box as false, and keeps the header by default', () => {
    expect(
      parseServerChangesForm(
        form({ url: 'https://mcp.example.com/v2', auth_header_mode: 'keep', auto_accept_cosmetic: 'on', approval_wait_seconds: '0' }),
        'http',
      ),
    ).toEqual({
      ok: true,
      value: { url: 'https://mcp.example.com/v2', list_unpublished: false, auto_accept_cosmetic: true, approval_wait_seconds: 0 },
    });
  });

  it('replaces or removes the auth header', () => {
    const base = { url: 'https://mcp.example.com/mcp', approval_wait_seconds: '30' };
    const replaced = parseServerChangesForm(
      form({ ...base, auth_header_mode: 'replace', auth_header_name: 'X-Token', auth_header_value: 'new' }),
      'http',
    );
    expect(replaced.ok && replaced.value.auth_header).toEqual({ name: 'X-Token', value: 'new' });
    const removed = parseServerChangesForm(form({ ...base, auth_header_mode: 'remove', auth_header_value: 'ignored' }), 'http');
    expect(removed.ok && removed.value.auth_header).toBeNull();
    expect(parseServerChangesForm(form({ ...base, auth_header_mode: 'replace', auth_header_name: 'X-Token' }), 'http')).toEqual({
      ok: false,
      message: 'Auth header: give the new header its name and its value.',
    });
    expect(parseServerChangesForm(form({ ...base, auth_header_mode: 'other' }), 'http').ok).toBe(false);
  });

  it("never sends a stdio server's URL or header, and needs the wait", () => {
    expect(
      parseServerChangesForm(
        form({ url: 'https://ignored.example.com', auth_header_mode: 'remove', approval_wait_seconds: '12' }),
        'stdio',
      ),
    ).toEqual({ ok: true, value: { list_unpublished: false, auto_accept_cosmetic: false, approval_wait_seconds: 12 } });
    expect(parseServerChangesForm(form({ approval_wait_seconds: '' }), 'stdio')).toEqual({
      ok: false,
      message: 'Approval wait: a whole number of seconds from 0 to 300.',
    });
  });
});
