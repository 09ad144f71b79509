import { metricsHandler } from '../api/handlers/metrics';
import { parseExposition } from '../metrics/testing/parse-exposition';

/** GET /metrics through its handler, parsed when it answered 200. */
export async function scrapeMetrics(headers: Record<string, string> = {}) {
  const response = await metricsHandler(new Request('http://localhost/metrics', { headers }));
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, samples: response.ok ? parseExposition(text) : [] };
}

export const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
