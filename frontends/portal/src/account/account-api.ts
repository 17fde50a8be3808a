import type {
  AccountChangePasswordBody,
  AccountResetPasswordResponse,
  EXTERNAL_LOGIN_PATH as ExternalLoginPath,
  InteractionDetails,
  LoginBody,
  LoginResponse,
  PasskeyOptions,
  PasskeyOptionsBody,
  PasskeyVerifyBody,
  PasswordResetDone,
  PublicConfig,
  ResendCodeResponse,
  VerifyCodeBody,
  signInRoutes,
} from '@gatehouse/contracts';
import { ApiError, errorBodyOf, fetchJson, productPath, sameOriginPath as sameOriginPathOf, type FieldErrorBody } from '@gatehouse/frontend-shared';
import { getI18n } from 'react-i18next';

/**
 * The sign-in API of `/api/v1/account`. Its refusals are not plain errors to throw: a 401, 403 or
 * 423 answer carries what the page shows next (attempts left, lock date, the Microsoft-only
 * notice), so POSTs resolve with `{ status, body }` whatever the status and reject only when no
 * readable answer came back.
 */

export const CONFIG_PATH = '/api/v1/config';
export const ACCOUNT_API = '/api/v1/account';

/** The account routes' paths; their types tie each one to the server's route declaration. */
type PathOf<K extends keyof typeof signInRoutes> = (typeof signInRoutes)[K]['path'];
type UsedRoute =
  | 'login'
  | 'verifyCode'
  | 'resendCode'
  | 'changePassword'
  | 'resetPassword'
  | 'consent'
  | 'interaction'
  | 'passkeyOptions'
  | 'passkeyVerify'
  | 'passkeyRegisterOptions'
  | 'passkeyRegister';
const PATHS: { [K in UsedRoute]: PathOf<K> } = {
  login: `${ACCOUNT_API}/login`,
  verifyCode: `${ACCOUNT_API}/verifyCode`,
  resendCode: `${ACCOUNT_API}/resendCode`,
  changePassword: `${ACCOUNT_API}/changePassword`,
  resetPassword: `${ACCOUNT_API}/resetPassword`,
  consent: `${ACCOUNT_API}/consent`,
  interaction: `${ACCOUNT_API}/interaction`,
  passkeyOptions: `${ACCOUNT_API}/passkey/options`,
  passkeyVerify: `${ACCOUNT_API}/passkey/verify`,
  passkeyRegisterOptions: `${ACCOUNT_API}/passkey/register/options`,
  passkeyRegister: `${ACCOUNT_API}/passkey/register`,
};
export const LOGOUT_PATH: PathOf<'logout'> = `${ACCOUNT_API}/logout`;
const EXTERNAL_LOGIN_PATH: typeof ExternalLoginPath = `${ACCOUNT_API}/externalLogin`;
const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

/**
 * The part of `/api/v1/config` the account area reads. `microsoftSignIn` absent means enabled: only
 * an explicit `false` hides the Microsoft choice. `links.support` is the footer's contact link;
 * `policy` the password rules the pages list.
 */
export type AccountConfig = Partial<Pick<PublicConfig, 'serviceUrl' | 'microsoftSignIn' | 'groupDomains' | 'groupDomainFragment' | 'links' | 'policy'>>;

export type { InteractionDetails, LoginResponse };

/** A refusal of these calls: the login response's refusal fields, or the common error shape. */
type Refusal = Partial<Pick<LoginResponse, 'code' | 'redirectTo' | 'attemptsLeft' | 'lockedUntil' | 'externalLoginRequired' | 'fieldErrors'>> & {
  message?: string;
  /** Texts (the login response) or field errors (the common error shape). */
  errors?: Array<string | FieldErrorBody>;
};

/** Whatever an account endpoint may answer: its own fields, or a refusal. */
export type AccountAnswer<T> = Omit<Partial<T>, keyof Refusal> & Refusal;

export interface AccountResponse<T> {
  status: number;
  ok: boolean;
  body: AccountAnswer<T>;
}

/** No readable answer came back (network down, proxy page, server crash). */
export class AccountRequestError extends Error {
  override readonly name = 'AccountRequestError';
}

function currentLanguage(): string | undefined {
  const i18n = getI18n();
  return i18n?.resolvedLanguage ?? i18n?.language;
}

export function readXsrfToken(cookies = typeof document === 'undefined' ? '' : document.cookie): string | undefined {
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === XSRF_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** Any GET under /api sets the anti-forgery cookie; the configuration is the cheapest one. */
export function fetchAccountConfig(signal?: AbortSignal): Promise<AccountConfig> {
  return fetchJson<AccountConfig>(CONFIG_PATH, { signal: signal ?? null });
}

/** The sign-in in progress for this browser, or undefined when there is none (404). */
export async function fetchInteraction(signal?: AbortSignal): Promise<InteractionDetails | undefined> {
  try {
    return await fetchJson<InteractionDetails>(PATHS.interaction, { signal: signal ?? null });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

export type TokenCheck = { valid: true } | { valid: false; messages: string[] };

/**
 * Checks an e-mailed reset link. A 400 is an answer (the link is unusable, with the server's
 * reason); anything else that fails is thrown.
 */
export async function validateResetToken(identityName: string, token: string, signal?: AbortSignal): Promise<TokenCheck> {
  const path = `${ACCOUNT_API}/validateToken/${encodeURIComponent(identityName)}/${encodeURIComponent(token)}`;
  try {
    await fetchJson<{ success: boolean }>(path, { signal: signal ?? null });
    return { valid: true };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      return { valid: false, messages: messagesOf({ errors: error.errors }) };
    }
    throw error;
  }
}

async function send<T>(path: string, payload: unknown): Promise<AccountResponse<T>> {
  const headers = new Headers({ Accept: 'application/json', 'Content-Type': 'application/json' });
  const language = currentLanguage();
  if (language) headers.set('Accept-Language', language);
  const xsrf = readXsrfToken();
  if (xsrf) headers.set(XSRF_HEADER, xsrf);

  let response: Response;
  try {
    response = await fetch(productPath(path), {
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
      credentials: 'same-origin',
    });
  } catch (error) {
    throw new AccountRequestError(error instanceof Error ? error.message : String(error));
  }
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    throw new AccountRequestError(`Unreadable answer (${response.status}) from ${path}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AccountRequestError(`Unexpected answer (${response.status}) from ${path}`);
  }
  return { status: response.status, ok: response.ok, body: body as AccountAnswer<T> };
}

/**
 * POSTs with the anti-forgery header. When the cookie is missing, or the server refused it (it
 * rotates an invalid one), one GET fetches a fresh cookie and the call is made once more.
 */
async function post<T>(path: string, payload: unknown): Promise<AccountResponse<T>> {
  if (!readXsrfToken()) await refreshXsrfCookie();
  const first = await send<T>(path, payload);
  if (first.status !== 403 || errorBodyOf(first.body).code !== 'errors.xsrf') return first;
  await refreshXsrfCookie();
  return send<T>(path, payload);
}

async function refreshXsrfCookie(): Promise<void> {
  try {
    await fetch(productPath(CONFIG_PATH), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  } catch {
    // The POST that follows reports the failure.
  }
}

export type LoginPayload = LoginBody;

export const login = (payload: LoginBody) => post<LoginResponse>(PATHS.login, payload);

export const verifyCode = (payload: VerifyCodeBody) => post<LoginResponse>(PATHS.verifyCode, payload);

export const resendCode = (token: string) => post<ResendCodeResponse>(PATHS.resendCode, { token });

/** The expired-password step of a sign-in: answers a login response. */
export const changeExpiredPassword = (payload: Omit<AccountChangePasswordBody, 'identityName'>) => post<LoginResponse>(PATHS.changePassword, payload);

export type ResetLinkPayload = Required<Pick<AccountChangePasswordBody, 'identityName' | 'token' | 'newPassword' | 'confirmPassword' | 'returnUrl'>>;

/** The new password from an e-mailed reset link. */
export const changePasswordWithLink = (payload: ResetLinkPayload) => post<PasswordResetDone>(PATHS.changePassword, payload);

export const requestPasswordReset = (username: string, language: string | undefined) =>
  post<AccountResetPasswordResponse>(PATHS.resetPassword, { username, language });

/** A passkey challenge: of the sign-in in progress (no `token`), or of its second-factor step. */
export const passkeyOptions = (payload: PasskeyOptionsBody) => post<PasskeyOptions>(PATHS.passkeyOptions, payload);

/** The browser's passkey assertion: answers a login response. */
export const passkeyVerify = (payload: PasskeyVerifyBody) => post<LoginResponse>(PATHS.passkeyVerify, payload);

/** The options for adding the passkey a sign-in step asks for. */
export const passkeyRegisterOptions = (token: string) => post<PasskeyOptions>(PATHS.passkeyRegisterOptions, { token });

/** The passkey the browser created for that step: answers a login response (the sign-in goes on). */
export const passkeyRegister = (token: string, response: Record<string, unknown>) => post<LoginResponse>(PATHS.passkeyRegister, { token, response });

/** Allow (for the interaction whose details the page showed) or deny. */
export const answerConsent = (approve: boolean, interaction: string) => post<LoginResponse>(PATHS.consent, { approve, interaction });

/** Where the Microsoft (Office 365) sign-in starts; a full page navigation, not a fetch. */
export function externalLoginUrl(returnUrl: string): string {
  const query = new URLSearchParams({ provider: 'mslive', returnUrl });
  return productPath(`${EXTERNAL_LOGIN_PATH}?${query.toString()}`);
}

/** The texts of an answer: `errors` as sent (strings or field errors), else its message. */
export function messagesOf(body: Pick<AccountAnswer<unknown>, 'errors' | 'message'>): string[] {
  const { errors, message } = errorBodyOf(body);
  const fromErrors = errors.map((error) => error.message).filter((text) => text.trim().length > 0);
  if (fromErrors.length) return fromErrors;
  return message?.trim() ? [message] : [];
}

/** A message of the server about one field of the request, in the user's language. */
export interface ServerFieldError {
  field: string;
  code?: string;
  message: string;
}

/**
 * The messages of an answer that name their field: the login response's `fieldErrors`, or the
 * entries of the common error shape that carry a `field`.
 */
export function fieldErrorsOf(body: Pick<AccountAnswer<unknown>, 'errors' | 'fieldErrors'>): ServerFieldError[] {
  if (body.fieldErrors?.length) return body.fieldErrors;
  return errorBodyOf(body).errors.flatMap(({ field, code, message }) => (field && message ? [{ field, code, message }] : []));
}

/**
 * Full-page navigation, kept in one place so tests can observe it. It never leaves this site: an
 * address that would is replaced by the home page.
 */
export function navigateTo(url: string): void {
  window.location.assign(productPath(sameOriginPath(url) ?? '/'));
}

/**
 * A return address from the query string, or a `redirectTo` of the API, is followed only when it
 * stays on this site; anything else would make the sign-in pages an open redirect.
 */
export function sameOriginPath(value: string | null | undefined): string | undefined {
  return sameOriginPathOf(value, window.location.origin);
}
