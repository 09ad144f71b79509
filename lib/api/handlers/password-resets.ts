import { z } from 'zod';
import { defineRoute } from '../define-route';
import { completePasswordReset } from '../../members/password-reset';
import { requestPasswordReset } from '../../members/request-password-reset';
import { CLIENT_ADDRESS_HEADER } from '../../http/client-address';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../auth/password-policy';

/**
 * POST /api/v1/password-resets/complete — sets a new password with a reset link the operator
 * made (`toolgate members reset-password`). No auth: the link's token is the credential. Every
 * session of the account ends; the person then signs in with the new password.
 */
export const completePasswordResetHandler = defineRoute({
  auth: 'none',
  body: z
    .object({
      token: z.string().min(1).max(200),
      password: z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH),
    })
    .strict(),
  response: z.object({ email: z.string(), sessions_ended: z.number().int() }).strict(),
  handler: async ({ body }) => {
    const reset = await completePasswordReset({ token: body.token, password: body.password });
    return { body: { email: reset.email, sessions_ended: reset.sessionsEnded } };
  },
});

/**
 * POST /api/v1/password-resets — "forgot your password?": mails a reset link to the address if an
 * account with a password has it (only when the instance sends mail). The same 202 either way.
 */
export const requestPasswordResetHandler = defineRoute({
  auth: 'none',
  body: z.object({ email: z.string().min(1).max(1000) }).strict(),
  response: z.object({ status: z.literal('accepted'), message: z.string() }).strict(),
  handler: async ({ body, call }) => {
    await requestPasswordReset({ email: body.email, clientAddress: call.header(CLIENT_ADDRESS_HEADER) });
    return {
      status: 202,
      body: {
        status: 'accepted',
        message: 'If an account with a password has this address, a link to set a new one is on its way. It works for an hour.',
      },
    };
  },
});
