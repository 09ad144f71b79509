import { z } from 'zod';
import { defineRoute } from '../define-route';
import { AppError } from '../../errors';
import { plainObject } from '../../json';
import { CallContextSchema } from '../../validation/call-context';
import { env } from '../../env';
import { getInstanceSecret } from '../../auth/instance-secret';
import { hashCanonical } from '../../contracts/canonical-json';
import { resolveContract } from '../../contracts/resolve-contract';
import { createConfirmation } from '../../confirmations/create-confirmation';

/**
 * POST /api/v1/confirmations — the host application records that its user confirmed one exact
 * call, and gets the token the agent then passes to validate/pre.
 */
export const createConfirmationHandler = defineRoute({
  auth: { apiKey: 'validate' },
  body: z
    .object({
      tool: z.string().min(1).max(128),
      version: z.string().min(1).max(64).optional(),
      arguments: plainObject('The exact arguments the user confirmed.'),
      context: CallContextSchema.default({}),
    })
    .strict(),
  response: z
    .object({ id: z.string(), confirmation_token: z.string(), expires_at: z.string(), tool: z.string(), version: z.string() })
    .strict(),
  handler: async ({ caller, body }) => {
    const resolved = await resolveContract({ tenantId: caller.tenantId, tool: body.tool, version: body.version });
    if (!resolved.found)
      throw new AppError('not_found', `Tool "${body.tool}"${body.version ? `@${body.version}` : ''} has no published contract.`, {
        code: resolved.reason === 'unknown_tool' ? 'AXAG_UNKNOWN_TOOL' : 'AXAG_VERSION_NOT_FOUND',
      });
    const confirmation = await createConfirmation({
      binding: {
        tenantId: caller.tenantId,
        tool: body.tool,
        contractVersion: resolved.contract.version,
        argsHash: hashCanonical(body.arguments),
        userId: body.context.user_id ?? null,
      },
      ttlSeconds: env().TOOLGATE_CONFIRMATION_TTL_SECONDS,
      secret: await getInstanceSecret(),
    });
    return { status: 201, body: { ...confirmation, tool: body.tool, version: resolved.contract.version } };
  },
});
