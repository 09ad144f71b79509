import { describe, expect, it } from 'vitest';
import { dataExceptionCode, isDatabaseUnavailable, queryDefectCode } from './define-route';

// The shape Prisma 7 gives a PostgreSQL error through the pg adapter (read off a real one: a NUL
// in a findMany filter), and node-postgres' own.
const prismaError = (sqlstate: string) =>
  Object.assign(new Error('Invalid `prisma.evidence.findMany()` invocation'), {
    name: 'PrismaClientKnownRequestError',
    code: 'P2039',
    meta: {
      modelName: 'Evidence',
      driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode: sqlstate, kind: 'postgres' } },
    },
  });

describe('dataExceptionCode', () => {
  it("finds PostgreSQL's data exceptions (class 22), the caller's values, wherever the driver put the code", () => {
    expect(dataExceptionCode(prismaError('22021'))).toBe('22021');
    expect(dataExceptionCode(prismaError('22008'))).toBe('22008');
    expect(dataExceptionCode(Object.assign(new Error('out of range'), { code: '22003' }))).toBe('22003');
    expect(dataExceptionCode(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '22P02' }) }))).toBe('22P02');
  });

  it('leaves everything else to the outage check: a connection refused stays a 503', () => {
    expect(dataExceptionCode(prismaError('57P01'))).toBeNull();
    expect(dataExceptionCode(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBeNull();
    expect(dataExceptionCode(null)).toBeNull();
    expect(isDatabaseUnavailable(prismaError('57P01'))).toBe(true);
    // A statement cancelled by statement_timeout (the hot path's bound): a stall, so 503.
    expect(isDatabaseUnavailable(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toBe(true);
  });
});

describe('queryDefectCode', () => {
  it('takes a query over the bound-parameter limit (P2029) for a defect, not an outage a retry gets past', () => {
    const tooManyParameters = Object.assign(new Error('The query parameter limit supported by your database is exceeded.'), {
      name: 'PrismaClientKnownRequestError',
      code: 'P2029',
      meta: { modelName: 'Contract' },
    });
    expect(queryDefectCode(tooManyParameters)).toBe('P2029');
    expect(isDatabaseUnavailable(tooManyParameters)).toBe(false);
    expect(queryDefectCode(prismaError('57P01'))).toBeNull();
    expect(isDatabaseUnavailable(Object.assign(new Error('pool timeout'), { name: 'PrismaClientKnownRequestError', code: 'P2024' }))).toBe(
      true,
    );
  });
});
