import type { LoginResponse } from '@gatehouse/contracts';
import { Refused, type SignInRefusal } from './refusal.js';
import type { SignInOutcome } from './sign-in-state.js';

/** A message in the caller's language. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

/** The spec's login response, with its defaults (not signed in, no step to take). */
export function loginResponse(fields: Partial<LoginResponse>): LoginResponse {
  return { success: false, errors: [], redirectTo: null, changePassword: false, twoAuthentificationRequired: false, token: null, ...fields };
}

/** A refusal as the login response says it; `codes` when several messages are shown (missing fields). */
export function refusalResponse(refusal: SignInRefusal, t: Translate, codes: readonly string[] = refusal.detail ? [refusal.code, refusal.detail] : [refusal.code]): LoginResponse {
  return loginResponse({
    code: refusal.code,
    errors: codes.map((code) => t(code, refusal.params)),
    attemptsLeft: refusal.attemptsLeft,
    lockedUntil: refusal.lockedUntil?.toISOString(),
    lockedAfter: refusal.lockedAfter,
    externalLoginRequired: refusal.externalLoginRequired,
    redirectTo: refusal.redirectTo ?? null,
  });
}

/** Where the sign-in stands, as the page reads it: finished (redirectTo), or the next step with its token. A refusal is thrown. */
export function progressResponse(outcome: SignInOutcome, t: Translate): LoginResponse {
  if (!outcome.ok) throw new Refused(outcome);
  switch (outcome.kind) {
    case 'expired-password': {
      // A temporary password is not "expired" to the user who just received it: say what it is.
      const code = outcome.temporary ? 'account.temporary_password' : 'account.password_expired';
      return loginResponse({ changePassword: true, token: outcome.token, code, errors: [t(code)] });
    }
    case 'second-factor': {
      const codeExpiresAt = outcome.expiresAt ? new Date(outcome.expiresAt).toISOString() : null;
      return loginResponse({ twoAuthentificationRequired: true, token: outcome.token, twoFactorMethod: outcome.method, twoFactorMethods: outcome.methods, codeExpiresAt });
    }
    case 'passkey-enrolment':
      return loginResponse({ passkeyEnrolmentRequired: true, token: outcome.token });
    case 'signed-in':
      return loginResponse({ success: true, redirectTo: outcome.redirectTo });
  }
}
