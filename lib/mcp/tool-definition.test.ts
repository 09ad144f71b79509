import { describe, expect, it } from 'vitest';
import { TOOL_ID_PATTERN } from '../contracts/contract-schema';
import { definitionHash, MAX_DEFINITION_BYTES, mcpContractId, readUpstreamTool } from './tool-definition';

describe('mcpContractId', () => {
  it('is server.tool with characters outside the contract id alphabet made _', () => {
    expect(mcpContractId('github', 'create_issue')).toBe('github.create_issue');
    expect(mcpContractId('github', 'get-sum')).toBe('github.get_sum');
    expect(mcpContractId('github', 'Get Weather!')).toBe('github.get_weather_');
    expect(mcpContractId('fs', 'files.read')).toBe('fs.files.read');
    expect(mcpContractId('fs', '2fa')).toBe('fs.t2fa');
    expect(mcpContractId('fs', 'ünïcode')).toBe('fs.t_n_code');
    expect(mcpContractId('fs', '..')).toBe('fs.t.t.t');
  });

  it("always gives a valid contract id, unique among one server's tools", () => {
    const taken = new Set<string>();
    const ids = ['get-x', 'get_x', 'GET_X', 'x'.repeat(300), '', '.', '__proto__'].map((name) => mcpContractId('srv', name, taken));
    for (const id of ids) expect(id).toMatch(TOOL_ID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, 3)).toEqual(['srv.get_x', 'srv.get_x_2', 'srv.get_x_3']);
  });
});

describe('readUpstreamTool', () => {
  it('keeps only what changes what a model is told or what a call may do', () => {
    const read = readUpstreamTool({
      name: 'echo',
      description: 'Echo',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, destructiveHint: 'yes', extra: 1 },
      icons: [{ src: 'x' }],
      _meta: { anything: true },
    });
    expect(read).toEqual({
      definition: { name: 'echo', description: 'Echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    });
  });

  it('refuses what cannot be a tool, and keeps a __proto__ key as data', () => {
    expect(readUpstreamTool(null)).toHaveProperty('problem');
    expect(readUpstreamTool({ name: '', inputSchema: {} })).toHaveProperty('problem');
    expect(readUpstreamTool({ name: 'x'.repeat(129), inputSchema: {} })).toHaveProperty('problem');
    expect(readUpstreamTool({ name: 'a\u0000b', inputSchema: {} })).toHaveProperty('problem');
    expect(readUpstreamTool({ name: 'a\ud800', inputSchema: {} })).toHaveProperty('problem');
    expect(readUpstreamTool({ name: 'a' })).toHaveProperty('problem');
    expect(readUpstreamTool({ name: 'a', inputSchema: { description: 'x'.repeat(MAX_DEFINITION_BYTES) } })).toHaveProperty('problem');
    const hostile = readUpstreamTool(JSON.parse('{"name":"a","inputSchema":{"__proto__":{"polluted":true}}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect('definition' in hostile && Object.keys(hostile.definition.inputSchema)).toEqual(['__proto__']);
  });

  it('hashes equal definitions equally whatever the key order, and any change differently', () => {
    const a = { name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } };
    const b = { inputSchema: { properties: { x: { type: 'string' } }, type: 'object' }, name: 'a' };
    expect(definitionHash(a)).toBe(definitionHash(b));
    expect(definitionHash({ ...a, description: 'changed' })).not.toBe(definitionHash(a));
  });
});
