import { expect } from 'vitest';
import type { RouteHandler } from '../api/define-route';

/** Calls a mounted route handler the way Next does: a Web Request plus route params. */
export async function call(
  handler: RouteHandler | ((request: Request, context: never) => Promise<Response>),
  options: {
    method?: string;
    path?: string;
    body?: unknown;
    rawBody?: string | ReadableStream<Uint8Array>;
    key?: string;
    headers?: Record<string, string>;
    params?: Record<string, string>;
  } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary response shapes
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: BodyInit | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  // As a browser does on every unsafe request: the page's own origin (the same-origin rule,
  // lib/http/same-origin.ts). Tests of that rule build their own requests.
  if (
    headers.cookie !== undefined &&
    method !== 'GET' &&
    method !== 'HEAD' &&
    !Object.keys(headers).some((name) => name.toLowerCase() === 'origin')
  ) {
    headers.origin = new URL(process.env.TOOLGATE_PUBLIC_URL ?? 'http://localhost').origin;
  }
  const request = new Request(`http://localhost${options.path ?? '/'}`, {
    method,
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const response = await (handler as RouteHandler)(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

export function expectCodes(issues: { code: string }[], codes: string[]): void {
  expect(issues.map((i) => i.code).sort()).toEqual([...codes].sort());
}
