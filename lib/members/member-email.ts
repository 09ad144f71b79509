import { z } from 'zod';
import { AppError } from '../errors';

/** RFC 5321's limit on a forward path; nothing longer can receive mail. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * An email as Toolgate stores it: trimmed and lowercased, so `Ann@Example.com ` and
 * `ann@example.com` are one person (Better Auth looks users up by the stored form).
 */
export const memberEmailSchema = z.string().max(1000).trim().toLowerCase().pipe(z.email().max(MAX_EMAIL_LENGTH));

export function normaliseEmail(raw: string): string {
  const parsed = memberEmailSchema.safeParse(raw);
  if (!parsed.success)
    throw new AppError('bad_request', `"${raw.slice(0, 80)}" is not an email address of at most ${MAX_EMAIL_LENGTH} characters.`, {
      field: 'email',
    });
  return parsed.data;
}
