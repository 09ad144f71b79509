import { z } from 'zod';
import { defineRoute } from '../define-route';
import { completePasswordReset } from '../../members/password-reset';
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
