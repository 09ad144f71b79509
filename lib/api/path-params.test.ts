import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors';
import { contractIdParam, documentIdParam, parsePathParams, rowIdParam, traceIdParam, versionParam } from './path-params';

function refusal(run: () => unknown): { status: number; code: string; message: string; details: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parsePathParams', () => {
  const approval = z.object({ id: rowIdParam('approval') });
  const contractVersion = z.object({ id: contractIdParam(), version: versionParam('contract') });

  it('passes the params that can name something', () => {
    expect(parsePathParams(approval, { id: 'cmabc_12-3' })).toEqual({ id: 'cmabc_12-3' });
    expect(parsePathParams(contractVersion, { id: 'orders.lookup', version: '1.2.0-beta.1' })).toEqual({
      id: 'orders.lookup',
      version: '1.2.0-beta.1',
    });
    expect(parsePathParams(z.object({ id: documentIdParam('policy') }), { id: 'support-default' })).toEqual({ id: 'support-default' });
    expect(parsePathParams(z.object({ traceId: traceIdParam() }), { traceId: 'a'.repeat(32) })).toEqual({ traceId: 'a'.repeat(32) });
  });

  it('answers a param that cannot name anything as the service answers an unknown id: 404 not_found', () => {
    expect(refusal(() => parsePathParams(approval, { id: 'x'.repeat(65) }))).toEqual({
      status: 404,
      code: 'not_found',
      message: `approval "${'x'.repeat(65)}" was not found`,
      details: { resource: 'approval', id: 'x'.repeat(65) },
    });
    expect(refusal(() => parsePathParams(approval, { id: 'a.b' }))).toMatchObject({
      status: 404,
      details: { resource: 'approval', id: 'a.b' },
    });
    expect(refusal(() => parsePathParams(contractVersion, { id: 'Orders', version: '1.0.0' }))).toMatchObject({
      status: 404,
      details: { resource: 'contract', id: 'Orders' },
    });
    expect(refusal(() => parsePathParams(contractVersion, { id: 'orders.lookup', version: 'latest' }))).toMatchObject({
      status: 404,
      message: 'contract version "orders.lookup@latest" was not found',
      details: { resource: 'contract version', id: 'orders.lookup@latest' },
    });
    expect(refusal(() => parsePathParams(z.object({ traceId: traceIdParam() }), { traceId: 'g'.repeat(32) }))).toMatchObject({
      status: 404,
      details: { resource: 'trace' },
    });
  });

  it('refuses a missing param the same way', () => {
    expect(refusal(() => parsePathParams(approval, {}))).toMatchObject({
      status: 404,
      code: 'not_found',
      details: { resource: 'approval', id: '' },
    });
  });
});
