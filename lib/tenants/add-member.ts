import { hashPassword } from 'better-auth/crypto';
import { db } from '../db';
import type { Role } from './roles';

/**
 * Creates (or reuses) a user with an email + password credential and gives them a role in a
 * tenant. Writes Better Auth's user and credential account rows with its own password hash, so
 * sign-in works through Better Auth while self sign-up stays disabled.
 */
export async function addMember(options: { tenantId: string; email: string; password: string; role: Role; name?: string }) {
  const email = options.email.trim().toLowerCase();
  const passwordHash = await hashPassword(options.password);
  return db().$transaction(async (tx) => {
    let user = await tx.user.findUnique({ where: { email } });
    if (!user) {
      user = await tx.user.create({ data: { email, name: options.name ?? email.split('@')[0] ?? email, emailVerified: true } });
      await tx.account.create({ data: { userId: user.id, accountId: user.id, providerId: 'credential', password: passwordHash } });
    }
    const membership = await tx.membership.upsert({
      where: { tenantId_userId: { tenantId: options.tenantId, userId: user.id } },
      create: { tenantId: options.tenantId, userId: user.id, role: options.role },
      update: { role: options.role },
    });
    return { user, membership };
  });
}
