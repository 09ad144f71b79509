import { SSO_REFUSALS, isSsoRefusal } from './sso-rules';

/**
 * What the sign-in page says for the `?error=` code a failed SSO sign-in comes back with: the
 * refusals Toolgate decides (sso-rules.ts), the codes Better Auth's OAuth callback uses, and
 * what the identity provider itself may answer (OAuth 2.0 section 4.1.2.1).
 */
export interface SsoErrorMessage {
  title: string;
  message: string;
  /** A refusal is final until someone acts; the other errors may pass on a second try. */
  refusal: boolean;
}

const RESTART = 'Start again from this page. If it keeps happening, tell your Toolgate administrator.';
const UNVERIFIABLE = {
  title: 'Single sign-on could not be completed',
  message: `Toolgate could not verify the identity provider's answer. ${RESTART}`,
};

const MESSAGES: Record<string, { title: string; message: string }> = {
  state_mismatch: {
    title: 'The sign-in expired or was started elsewhere',
    message: `The sign-in was started in another tab or browser, or took too long. ${RESTART}`,
  },
  state_not_found: {
    title: 'The sign-in expired or was started elsewhere',
    message: `The sign-in was started in another tab or browser, or took too long. ${RESTART}`,
  },
  please_restart_the_process: { title: 'The sign-in expired', message: RESTART },
  invalid_callback_request: UNVERIFIABLE,
  no_code: UNVERIFIABLE,
  invalid_code: UNVERIFIABLE,
  issuer_mismatch: UNVERIFIABLE,
  issuer_missing: UNVERIFIABLE,
  nonce_binding_missing: UNVERIFIABLE,
  unable_to_get_user_info: UNVERIFIABLE,
  no_callback_url: UNVERIFIABLE,
  oauth_provider_not_found: {
    title: 'Single sign-on is not available right now',
    message: 'Toolgate could not reach the identity provider. Try again in a minute, or sign in with your password.',
  },
  email_not_found: {
    title: 'Your identity provider did not send an email address',
    message: 'Toolgate needs the email claim to know who you are. Ask your identity provider administrator to release it to Toolgate.',
  },
  account_not_linked: {
    title: 'This account cannot be linked to single sign-on',
    message:
      'A Toolgate account with this email exists, but it could not be linked to your identity provider. Sign in with your password, or ask your Toolgate administrator.',
  },
  unable_to_link_account: {
    title: 'This account cannot be linked to single sign-on',
    message:
      'A Toolgate account with this email exists, but it could not be linked to your identity provider. Sign in with your password, or ask your Toolgate administrator.',
  },
  account_already_linked_to_different_user: {
    title: 'This identity is linked to another Toolgate account',
    message: 'Your identity provider account already signs in to a different Toolgate user. Ask your Toolgate administrator.',
  },
  access_denied: {
    title: 'Sign-in cancelled',
    message: 'The identity provider did not let the sign-in through (it was cancelled or refused there). Try again.',
  },
  sso_failed: { title: 'Signing you in did not finish', message: RESTART },
};

const CODE = /^[a-z0-9_]{1,64}$/;

/** The message for an error code, or null when the page was opened without one. */
export function ssoErrorMessage(code: string | undefined | null): SsoErrorMessage | null {
  if (!code) return null;
  if (isSsoRefusal(code)) return { ...SSO_REFUSALS[code], refusal: true };
  if (Object.hasOwn(MESSAGES, code)) return { ...MESSAGES[code]!, refusal: false };
  // Unknown codes (a provider's own) are named, so a support request can quote them.
  const shown = CODE.test(code) ? ` (${code})` : '';
  return { title: 'Single sign-on could not be completed', message: `The sign-in did not finish${shown}. ${RESTART}`, refusal: false };
}
