import { formatDateTime } from '@gatehouse/frontend-shared';
import { fieldErrorsOf, messagesOf, sameOriginPath, type AccountResponse, type LoginResponse, type ServerFieldError } from '../account-api';
import type { AccountT } from '../use-account-translation';

/** The product's default lockout threshold, for a server that does not say its own. */
const DEFAULT_LOCKOUT_ATTEMPTS = 5;

export type TwoFactorMethod = 'email' | 'totp' | 'passkey';

/** A way to give the second factor at the step: one of the methods, or one of the user's recovery codes. */
export type TwoFactorChoice = TwoFactorMethod | 'recovery';

/** What the page does with an answer of login, verifyCode or the expired-password change. */
export type LoginOutcome =
  | { kind: 'redirect'; url: string }
  | {
      kind: 'two-factor';
      token: string;
      method: TwoFactorMethod;
      /** Every way the user may give the second factor at this step, `method` first. */
      methods: TwoFactorChoice[];
      codeExpiresAt: string | null;
    }
  | { kind: 'expired-password'; token: string; message: string | undefined }
  /** A tenant of the user accepts only passkeys: one is added before the sign-in goes on. */
  | { kind: 'passkey-enrolment'; token: string }
  | {
      kind: 'refused';
      /** The server's texts, already in the user's language; empty when it gave none. */
      messages: string[];
      code: string | undefined;
      externalLoginRequired: boolean;
      /** The end of a temporary lock (ISO 8601), shown in the user's time zone. */
      lockedUntil: string | undefined;
      /** The failures in a row that locked the account (the lockout setting), when locked. */
      lockedAfter?: number;
      /** The messages that are about one field of the form (a refused new password). */
      fieldErrors: ServerFieldError[];
    };

export type Refusal = Extract<LoginOutcome, { kind: 'refused' }>;

/**
 * Reads a login response. A next step comes with a 200 and `success: false`; a finished (or
 * expired) sign-in names where the browser goes; everything else is a refusal to show.
 * `fallbackUrl` is used when the sign-in succeeded without saying where to go, or named a place
 * off this site.
 */
export function interpretLogin(response: AccountResponse<LoginResponse>, fallbackUrl: string): LoginOutcome {
  const { body } = response;
  if (response.ok && body.success) return { kind: 'redirect', url: sameOriginPath(body.redirectTo) ?? fallbackUrl };
  if (response.ok && body.changePassword && body.token) {
    return { kind: 'expired-password', token: body.token, message: messagesOf(body)[0] };
  }
  if (response.ok && body.passkeyEnrolmentRequired && body.token) return { kind: 'passkey-enrolment', token: body.token };
  if (response.ok && body.twoAuthentificationRequired && body.token) {
    const method = body.twoFactorMethod ?? 'email';
    return { kind: 'two-factor', token: body.token, method, methods: choicesOf(method, body.twoFactorMethods), codeExpiresAt: body.codeExpiresAt ?? null };
  }
  // An expired sign-in (or a refused consent) says where to start again.
  if (body.redirectTo) return { kind: 'redirect', url: sameOriginPath(body.redirectTo) ?? fallbackUrl };
  return {
    kind: 'refused',
    // A crash's reference number means nothing to the user: the spec's message is shown instead.
    messages: response.status >= 500 ? [] : messagesOf(body),
    code: body.code,
    externalLoginRequired: body.externalLoginRequired === true,
    lockedUntil: body.lockedUntil,
    lockedAfter: body.lockedAfter,
    fieldErrors: response.status >= 500 ? [] : fieldErrorsOf(body),
  };
}

/**
 * The ways offered at the second-factor step, the first one asked for first. A server that lists
 * none offers the method it asked for, and an e-mailed code in place of an authenticator app's.
 */
function choicesOf(method: TwoFactorMethod, listed: readonly TwoFactorChoice[] | undefined): TwoFactorChoice[] {
  const offered: readonly TwoFactorChoice[] = listed?.length ? listed : method === 'totp' ? ['totp', 'email'] : [method];
  return [method, ...offered.filter((choice) => choice !== method)];
}

/**
 * What the page shows for a refusal: a temporary lock with its end in the user's local time
 * (`DD-MM-YYYY hh:mm:ss`, where the server's text gives UTC), else the server's texts, else the
 * spec's unknown-error message.
 */
export function refusalTexts(refusal: Refusal, t: AccountT): string[] {
  if (refusal.lockedUntil && !Number.isNaN(Date.parse(refusal.lockedUntil))) {
    const locked = t('login.locked', { until: formatDateTime(refusal.lockedUntil, { notSet: '' }), count: refusal.lockedAfter ?? DEFAULT_LOCKOUT_ATTEMPTS });
    if (refusal.code === 'account.locked') return [locked];
    // "User Is Locked Out" (said once the password was right), then the lock in local time.
    if (refusal.code === 'account.locked_out' && refusal.messages.length) return [refusal.messages[0]!, locked];
  }
  return refusal.messages.length ? refusal.messages : [t('login.unknownError')];
}
