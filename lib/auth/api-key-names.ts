import { db } from '../db';

/** The names of the tenant's keys among these ids (revoked keys keep their name). */
export async function apiKeyNames(tenantId: string, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const keys = await db().apiKey.findMany({ where: { tenantId, id: { in: wanted } }, select: { id: true, name: true } });
  return new Map(keys.map((k) => [k.id, k.name]));
}
