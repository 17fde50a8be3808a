import { createHash, randomBytes } from 'node:crypto';
import { AppError, DEVICE_POLL_INTERVAL_SECONDS, LANGUAGES, resolveLanguage, writeAuthenticationLog, type AppContext, type AuthenticationLogEntry, type Language } from '@gatehouse/core';
import type { Context, Next } from 'koa';
import { errors, interactionPolicy, type Adapter, type AdapterPayload, type Client, type Configuration, type DeviceCode, type Interaction, type KoaContextWithOIDC } from 'oidc-provider';
import type { SessionImpersonations } from '../features/identify-as/session-impersonations.js';
import type { AccountDirectory } from './account.js';
import { DEVICE_CODE_GRANT, type ClientRegistry } from './clients.js';
import { deviceCodePage, deviceConfirmPage, deviceDonePage } from './pages.js';
import { TTL } from './ttl.js';

/**
 * The device authorization grant (RFC 8628). A device without a browser of its own (a TV, a
 * command line, a kiosk) gets a code; its user types it on their phone or computer, signs in there
 * like anywhere else (the sign-in page, whatever it offers), confirms on a page naming the
 * application and what it will get, and the device, polling, receives the tokens.
 *
 * oidc-provider asks for the confirmation first and the sign-in after it. Here the sign-in comes
 * first: a code entered by nobody signed in starts the sign-in of that device's request, and the
 * sign-in ends back on the confirmation (the `device_confirmation` prompt), where the user sees
 * whose account the device gets before saying yes.
 */

/** The "account" wrong user codes count against in the sign-in limits: one per address, whatever code was tried. */
const WRONG_USER_CODES = 'device-code:unknown';
/** How long a device code's row outlives the code: meanwhile it is answered as expired, not as unknown. */
const KEPT_PAST_EXPIRY_SECONDS = 10 * 60;
/** The prompt that sends a user who signed in for a device back to its confirmation. */
export const DEVICE_CONFIRMATION = 'device_confirmation';
/** User codes: 8 letters without vowels or look-alikes, shown in two halves. */
const USER_CODE_MASK = '****-****';
/** The scopes the confirmation names in words; any other is named as it is. */
const NAMED_SCOPES = new Set(['openid', 'profile', 'email', 'roles', 'company', 'offline_access']);

type Features = NonNullable<Configuration['features']>;
type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What the device flow needs from the provider around it. */
export interface DeviceFlowDeps {
  context: AppContext;
  registry: ClientRegistry;
  directory: AccountDirectory;
  impersonations: SessionImpersonations;
  /** Where the provider sends the browser to sign in. */
  interactionUrl: (uid: string) => string;
  /** The options of the provider's interaction cookies. */
  interactionCookie: { httpOnly: boolean; sameSite: 'lax' | 'strict' | 'none'; signed: boolean; path: string };
}

/** A user code as the device shows it (`BCDF-GHJK`), from its stored form. */
function shownUserCode(normalized: string): string {
  const chars = [...normalized];
  return USER_CODE_MASK.replace(/\*/g, () => chars.shift() ?? '');
}

/** A user code as typed (any case, any separators), as the provider stores it. */
function normalizedUserCode(typed: string): string {
  return typed.toUpperCase().replace(/\W/g, '');
}

/** The signed-in user's language, else the browser's. */
async function phrasesFor(deps: DeviceFlowDeps, ctx: KoaContextWithOIDC): Promise<{ language: Language; t: Translate }> {
  const accountId = ctx.oidc.session?.accountId;
  const stored = accountId ? (await deps.directory.find(accountId))?.language : undefined;
  const language = LANGUAGES.includes(stored as Language) ? (stored as Language) : resolveLanguage(ctx.get('accept-language'));
  return { language, t: (key, options) => deps.context.i18n.t(key, { ...options, lng: language }) as string };
}

/** Which message the code page shows after an error of the provider. */
async function messageFor(ctx: KoaContextWithOIDC, error: Error & { userCode?: string; cause?: unknown }): Promise<string> {
  switch (error.name) {
    case 'NotFoundError':
    case 'NoCodeError':
      return 'device.not_found';
    case 'ExpiredError':
      return 'device.expired';
    case 'AlreadyUsedError': {
      const code = error.userCode ? await ctx.oidc.provider.DeviceCode.findByUserCode(normalizedUserCode(error.userCode), { ignoreExpiration: true }) : undefined;
      return code?.error === 'access_denied' ? 'device.denied' : 'device.used';
    }
    case 'AbortedError':
      return error.cause ? 'device.refused' : 'device.cancelled';
    default:
      return 'device.failed';
  }
}

/** An authentication-log row of the signed-in user about the device's application (confirmed, refused). */
async function logDecision(deps: DeviceFlowDeps, ctx: KoaContextWithOIDC, result: AuthenticationLogEntry['result'], reason: string): Promise<void> {
  const accountId = ctx.oidc.session?.accountId;
  const user = accountId ? await deps.directory.find(accountId) : undefined;
  if (!user) return;
  await writeAuthenticationLog(deps.context.dataSource, {
    userId: user.id,
    userName: user.user_name,
    result,
    reason,
    applicationName: ctx.oidc.client?.clientId ?? ctx.oidc.deviceCode?.clientId ?? null,
    ip: ctx.ip,
    userAgent: ctx.get('user-agent') || null,
    // A device's confirmation is no sign-in of its own (the sign-in before it was one): no sign-in webhook event.
    signIn: false,
  });
}

/**
 * The code page, first and after an error. A wrong code counts against the address as a wrong
 * password does; a confirmation the user cancelled is logged.
 */
function inputSource(deps: DeviceFlowDeps): NonNullable<Features['deviceFlow']>['userCodeInputSource'] {
  return async (ctx, _form, _out, error) => {
    if (error?.name === 'NotFoundError') await deps.context.throttle.failed(ctx.ip, WRONG_USER_CODES);
    if (error?.name === 'AbortedError' && !error.cause && ctx.oidc.route === 'code_verification') {
      await logDecision(deps, ctx, 'Failure', 'Device sign-in refused by the user');
    }
    const { language, t } = await phrasesFor(deps, ctx);
    ctx.type = 'html';
    ctx.body = deviceCodePage({
      language,
      title: t('device.title'),
      heading: t('device.enter_code'),
      message: error ? t(await messageFor(ctx, error)) : undefined,
      form: { action: ctx.oidc.urlFor('code_verification'), xsrf: String(ctx.oidc.session?.state?.secret ?? ''), label: t('device.code_label'), submit: t('device.continue') },
    });
  };
}

/**
 * Starts the sign-in of a device's request for a browser where nobody is signed in, as the
 * provider starts any sign-in: an interaction bound to this browser by its cookies, resumed at the
 * device's resume address once signed in.
 */
async function signInFirst(deps: DeviceFlowDeps, ctx: KoaContextWithOIDC, code: DeviceCode): Promise<void> {
  const { provider } = ctx.oidc;
  const uid = randomBytes(16).toString('base64url');
  const returnTo = ctx.oidc.urlFor('device_resume', { uid });
  // The provider's types leave out the model's constructor: the interaction is built as the provider builds its own.
  const InteractionModel = provider.Interaction as unknown as new (uid: string, payload: object) => Interaction;
  const interaction = new InteractionModel(uid, {
    returnTo,
    prompt: { name: 'login', reasons: ['no_session'], details: {} },
    params: code.params ?? {},
    deviceCode: code.jti,
    cid: uid,
    trusted: [],
  });
  await interaction.save(TTL.Interaction);
  const lifetime = { ...deps.interactionCookie, maxAge: TTL.Interaction * 1000 };
  ctx.cookies.set(provider.cookieName('interaction'), uid, lifetime);
  ctx.cookies.set(provider.cookieName('resume'), uid, { ...lifetime, path: new URL(returnTo).pathname });
  ctx.status = 303;
  ctx.redirect(deps.interactionUrl(uid));
}

/** What the confirmation says the application gets, in the user's words. */
function accessOf(scope: unknown, t: Translate): string[] {
  const scopes = [...new Set(String(scope ?? 'openid').split(' ').filter(Boolean))];
  return scopes.map((name) => (NAMED_SCOPES.has(name) ? t(`device.scopes.${name}`) : t('device.other_scope', { scope: name })));
}

/**
 * The confirmation, for a signed-in user: the application (its display name), the account it
 * gets, the code to compare with the device's and what it will receive. Nobody signed in: the
 * sign-in comes first. A God user signed in as the user sees why they cannot confirm.
 */
function confirmSource(deps: DeviceFlowDeps): NonNullable<Features['deviceFlow']>['userCodeConfirmSource'] {
  return async (ctx, _form, client: Client, _deviceInfo, userCode) => {
    // The right code from this address: its earlier typing mistakes are forgiven, as a sign-in forgives wrong passwords.
    await deps.context.throttle.succeeded(ctx.ip, WRONG_USER_CODES);
    const code = ctx.oidc.deviceCode!;
    const session = ctx.oidc.session!;
    const user = session.accountId ? await deps.directory.find(session.accountId) : undefined;
    if (!user) return signInFirst(deps, ctx, code);
    const acting = await deps.impersonations.ofSession(session.uid);
    const app = await deps.registry.find(client.clientId);
    const application = app?.displayName ?? client.clientName ?? client.clientId;
    const { language, t } = await phrasesFor(deps, ctx);
    const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
    ctx.type = 'html';
    ctx.body = deviceConfirmPage({
      language,
      title: t('device.confirm_title', { application }),
      intro: t('device.confirm_intro', { application, user: name ? `${name} (${user.user_name})` : user.user_name }),
      codeCheck: t('device.confirm_code'),
      userCode,
      accessHeading: t('device.confirm_access', { application }),
      access: accessOf(code.params?.scope, t),
      warning: acting ? t('device.while_acting') : t('device.confirm_warning'),
      form: acting
        ? undefined
        : { action: ctx.oidc.urlFor('code_verification'), xsrf: String(session.state?.secret ?? ''), confirm: t('device.confirm'), cancel: t('device.cancel') },
    });
  };
}

/** The end: the device has its tokens at its next poll. The confirmation is logged. */
function successSource(deps: DeviceFlowDeps): NonNullable<Features['deviceFlow']>['successSource'] {
  return async (ctx) => {
    await logDecision(deps, ctx, 'Success', 'Device sign-in confirmed');
    const app = await deps.registry.find(ctx.oidc.client!.clientId);
    const { language, t } = await phrasesFor(deps, ctx);
    ctx.type = 'html';
    ctx.body = deviceDonePage({ language, title: t('device.done_title'), message: t('device.done', { application: app?.displayName ?? ctx.oidc.client!.clientId }) });
  };
}

/** The provider's device flow: codes of 8 unambiguous letters, and the product's own pages in the user's language. */
export function deviceFlow(deps: DeviceFlowDeps): Features['deviceFlow'] {
  return {
    enabled: true,
    charset: 'base-20',
    mask: USER_CODE_MASK,
    userCodeInputSource: inputSource(deps),
    userCodeConfirmSource: confirmSource(deps),
    successSource: successSource(deps),
  };
}

/**
 * The prompt that brings a user who signed in for a device to the confirmation: the device's
 * request goes no further until the user confirmed it, signed in. A God user signed in as the user
 * cannot confirm in the user's name: the device is refused.
 */
export function deviceConfirmationPrompt(impersonations: SessionImpersonations): interactionPolicy.Prompt {
  return new interactionPolicy.Prompt(
    { name: DEVICE_CONFIRMATION, requestable: false },
    new interactionPolicy.Check('device_not_confirmed', 'the user has not confirmed the device', 'interaction_required', async (ctx) => {
      const code = ctx.oidc.deviceCode;
      if (!code) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      if (!code.inFlight) return interactionPolicy.Check.REQUEST_PROMPT;
      if (await impersonations.ofSession(ctx.oidc.session?.uid)) throw new errors.AccessDenied('a device cannot be connected while signed in as another user');
      return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    }),
  );
}

/**
 * Where the `device_confirmation` prompt sends the browser: back to the code page with the code,
 * which shows the confirmation now that the user is signed in. The interaction opened for it is
 * not needed.
 */
export async function deviceConfirmationUrl(ctx: KoaContextWithOIDC, interaction: Interaction): Promise<string> {
  await interaction.destroy();
  return ctx.oidc.urlFor('code_verification', { query: { user_code: shownUserCode(ctx.oidc.deviceCode!.userCode) } });
}

/** A device's request the user confirmed on the confirmation page (its code is then in flight). */
export function isConfirmedDevice(ctx: KoaContextWithOIDC): boolean {
  return ctx.oidc.deviceCode?.inFlight === true;
}

/** A device code confirmed by another request a moment earlier: said used, as one confirmed before is. */
class ConfirmedMeanwhile extends errors.InvalidRequest {
  constructor() {
    super('code has already been used');
    this.name = 'AlreadyUsedError';
  }
}

/** Storage that confirms a device code once, whatever the concurrency (a compare-and-set). */
type ClaimingAdapter = Adapter & { claim?(id: string, payload: AdapterPayload): Promise<boolean> };

/**
 * Device codes' storage. The write that marks a code in flight (the user's confirmation) wins only
 * over a code nobody confirmed or refused meanwhile: of two confirmations at the same moment, one
 * goes on. A row is kept a while past the code's end, so the code is said expired rather than unknown.
 */
export function deviceCodeStorage(adapter: ClaimingAdapter): Adapter {
  return {
    upsert: async (id, payload, expiresIn) => {
      if (adapter.claim && payload.inFlight === true && !payload.accountId && !payload.error) {
        if (!(await adapter.claim(id, payload))) throw new ConfirmedMeanwhile();
        return;
      }
      await adapter.upsert(id, payload, expiresIn === undefined ? undefined : expiresIn + KEPT_PAST_EXPIRY_SECONDS);
    },
    find: (id) => adapter.find(id),
    findByUserCode: (userCode) => adapter.findByUserCode(userCode),
    findByUid: (uid) => adapter.findByUid(uid),
    consume: (id) => adapter.consume(id),
    destroy: (id) => adapter.destroy(id),
    revokeByGrantId: (grantId) => adapter.revokeByGrantId(grantId),
  };
}

/**
 * The device authorization endpoint's limit, per client and address (the extra-parameter check
 * runs there once the client is known, before any code is issued): 429 with Retry-After past it.
 */
export function deviceAuthorizationLimit(context: AppContext) {
  return async (ctx: KoaContextWithOIDC, _clientId: string | undefined, client: Client): Promise<void> => {
    if (ctx.oidc.route !== 'device_authorization') return;
    try {
      await context.throttle.deviceAuthorization(ctx.ip, client.clientId);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 429) throw error;
      ctx.set('Retry-After', String(error.params.retryAfter));
      const refusal = new errors.SlowDown('too many device authorization requests from this address, try again later');
      Object.assign(refusal, { status: 429, statusCode: 429 });
      throw refusal;
    }
  };
}

const DEVICE_PATH = '/device';
const DEVICE_AUTHORIZATION_PATH = '/device/auth';
const TOKEN_PATH = '/token';

/** Wrong user codes from this address used up: the code page says so (429, Retry-After), without a form. */
async function refuseCodes(deps: DeviceFlowDeps, ctx: Context, error: AppError): Promise<void> {
  const language = resolveLanguage(ctx.get('accept-language'));
  const t: Translate = (key) => deps.context.i18n.t(key, { lng: language }) as string;
  ctx.status = 429;
  ctx.set('Retry-After', String(error.params.retryAfter));
  ctx.type = 'html';
  ctx.body = deviceCodePage({ language, title: t('device.title'), heading: t('device.enter_code'), message: t('device.too_many_attempts') });
}

/** Whether a token request was a device's poll answered "not yet": its digest then, to time its polls. */
function pendingPoll(ctx: Context): string | undefined {
  if (!('oidc' in ctx)) return undefined;
  const { params } = (ctx as unknown as KoaContextWithOIDC).oidc;
  const body = ctx.body as { error?: string } | undefined;
  if (params?.grant_type !== DEVICE_CODE_GRANT || body?.error !== 'authorization_pending' || typeof params.device_code !== 'string') return undefined;
  return createHash('sha256').update(params.device_code).digest('base64url');
}

/**
 * The device authorization endpoint's answer: a code comes with its polling interval; an
 * application that does not allow devices is told it is not authorized for the grant (RFC 6749's
 * `unauthorized_client`), where the provider says only that the request is invalid.
 */
function answerDeviceAuthorization(ctx: Context): void {
  if (!ctx.body || typeof ctx.body !== 'object') return;
  if (ctx.status === 200) {
    ctx.body = { ...(ctx.body as object), interval: DEVICE_POLL_INTERVAL_SECONDS };
    return;
  }
  const client = 'oidc' in ctx ? (ctx as unknown as KoaContextWithOIDC).oidc.client : undefined;
  if (ctx.status === 400 && client && !client.grantTypeAllowed(DEVICE_CODE_GRANT)) {
    ctx.body = { error: 'unauthorized_client', error_description: 'this application may not sign users in on devices' };
  }
}

/**
 * Provider middleware of the device flow: user codes are tried within the sign-in limits of the
 * address; a device is told its polling interval, and told to slow down (RFC 8628) when it asks
 * again sooner.
 */
export function koaDeviceFlow(deps: DeviceFlowDeps) {
  const { throttle } = deps.context;
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== 'POST') return next();
    if (ctx.path === DEVICE_PATH) {
      try {
        await throttle.assertMayAttempt(ctx.ip, WRONG_USER_CODES);
      } catch (error) {
        if (error instanceof AppError && error.status === 429) return refuseCodes(deps, ctx, error);
        throw error;
      }
    }
    await next();
    if (ctx.path === DEVICE_AUTHORIZATION_PATH) answerDeviceAuthorization(ctx);
    const poll = ctx.path === TOKEN_PATH ? pendingPoll(ctx) : undefined;
    if (poll && !(await throttle.devicePollOnTime(poll))) {
      ctx.body = { error: 'slow_down', error_description: `poll at most every ${DEVICE_POLL_INTERVAL_SECONDS} seconds` };
    }
  };
}
