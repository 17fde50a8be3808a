import { randomUUID } from 'node:crypto';
import { IDENTITY_APPLICATION_ID, isDatabaseUnavailable, resolveLanguage, securitySettings, type AppContext, type BufferedWriter, type SessionLogEntry } from '@gatehouse/core';
import type { TokenLifetimes } from '@gatehouse/contracts';
import { DPOP_ALGORITHMS, cspNonce, pageContentSecurityPolicy } from '@gatehouse/core/http';
import { isApplicationAccessBlocked } from '@gatehouse/core/access';
import type { Context } from 'koa';
import Provider, { errors, interactionPolicy, type Adapter, type Configuration, type JWK, type KoaContextWithOIDC } from 'oidc-provider';
import { CLAIMS, accountFinder, type AccountDirectory } from './account.js';
import { FAPI_PROFILE_METADATA, type ClientApplication, type ClientRegistry } from './clients.js';
import { DEVICE_CONFIRMATION, deviceAuthorizationLimit, deviceCodeStorage, deviceConfirmationPrompt, deviceConfirmationUrl, deviceFlow, isConfirmedDevice, koaDeviceFlow, type DeviceFlowDeps } from './device-flow.js';
import { countGrants } from './grant-metrics.js';
import { errorPage, loggedOutPage, logoutPage } from './pages.js';
import type { OidcStore } from './oidc-store.js';
import { PostgresAdapter } from './postgres-adapter.js';
import { actClaim, isLive, type SessionImpersonations } from '../features/identify-as/session-impersonations.js';
import { SessionRecorder } from '../features/security/session-recorder.js';
import { TokenExchange } from './token-exchange.js';
import { TTL, capped, refreshTokenTtl } from './ttl.js';

export const ADMIN_API_SCOPE = 'admin';
/** The scope the provider grants on the external API audience. */
export const EXTERNAL_API_SCOPE = 'external';

/** Where the provider sends the browser for sign-in, second factor and consent. */
export const interactionUrl = (uid: string) => `/account/login?interaction=${encodeURIComponent(uid)}`;

export interface ProviderOptions {
  keys: JWK[];
  registry: ClientRegistry;
  /** The node's shared storage front (group commit, read batching, token cache). */
  store: OidcStore;
  /** Cached users and role names. */
  directory: AccountDirectory;
  /** Where session-log rows go (written in the background, in batches). */
  sessionLog: BufferedWriter<SessionLogEntry>;
  /** Which sessions a God user is signed in to as another user (Identify As). */
  impersonations: SessionImpersonations;
  /** Storage of the provider's models; the database by default. */
  adapterFactory?: (model: string) => unknown;
}

function audienceOf(token: object): string[] {
  const aud = (token as { aud?: string | string[] }).aud;
  return aud === undefined ? [] : Array.isArray(aud) ? aud : [aud];
}

/** The provider's routes that start or continue a sign-in: authorization and its resume. */
const SIGN_IN_PATHS = /^\/auth(\/[^/]+)?$/;
/** The grants through which a user's tokens are issued; anything else is the client acting for itself. */
const USER_GRANTS = new Set(['authorization_code', 'refresh_token']);

/** The page a stopped application's sign-in ends on. */
function stoppedPage(app: ClientApplication): string {
  return errorPage({
    title: `${app.displayName} est arrêtée / is stopped`,
    message: `L’application ${app.displayName} est arrêtée : la connexion n’est pas possible pour le moment. / ${app.displayName} is stopped: signing in is not possible for now.`,
  });
}

/** Cookie-signing keys derived from the encryption key: stable across restarts and nodes. */
export function cookieKeys(context: AppContext): string[] {
  return [context.secrets.deriveKey('oidc-cookie-signing').toString('base64url')];
}

type Config = AppContext['config'];

/**
 * Admin-API tokens go to the admin console alone, and only for a signed-in user: any other
 * application signing in an administrator, or any client acting for itself, gets none.
 */
function adminApiPolicy(config: Config) {
  return (ctx: KoaContextWithOIDC, clientId: string | undefined): boolean => {
    const grantType = ctx.oidc.params?.grant_type;
    return clientId === config.oidc.adminClientId && (grantType === undefined || USER_GRANTS.has(String(grantType)));
  };
}

/**
 * External-API tokens go to business applications acting for themselves: through client_credentials
 * only (never a user's token), and never to the product's own SPAs.
 */
function externalApiPolicy(config: Config) {
  return (ctx: KoaContextWithOIDC, clientId: string | undefined): boolean =>
    ctx.oidc.params?.grant_type === 'client_credentials' && clientId !== config.oidc.adminClientId && clientId !== config.oidc.portalClientId;
}

/** Clients come from the application registry; every other model from the node's storage front. */
function storage(options: ProviderOptions): Configuration['adapter'] {
  const clientAdapter = {
    async find(clientId: string) {
      return (await options.registry.find(clientId))?.metadata;
    },
  };
  const stored = (model: string) => (options.adapterFactory?.(model) ?? new PostgresAdapter(model, options.store)) as Adapter;
  const adapter = (model: string) => (model === 'Client' ? clientAdapter : model === 'DeviceCode' ? deviceCodeStorage(stored(model)) : stored(model));
  return adapter as unknown as Configuration['adapter'];
}

/** Whether a client is under the FAPI 2.0 Security Profile (the provider keeps extra metadata under its own name). */
const isFapi2 = (client: unknown): boolean => (client as Record<string, unknown> | undefined)?.[FAPI_PROFILE_METADATA] === '2.0';

/** The algorithms of applications' own keys: client assertions (private_key_jwt) and signed request objects. */
const CLIENT_KEY_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'] as const;

/** Which flows, clients and algorithms the provider accepts, and where accounts and keys come from. */
function protocol(config: Config, options: ProviderOptions): Configuration {
  return {
    adapter: storage(options),
    findAccount: accountFinder(options.directory, options.registry, options.impersonations),
    jwks: { keys: options.keys },
    claims: CLAIMS,
    scopes: ['openid', 'offline_access', 'profile', 'email', 'roles', 'company'],
    responseTypes: ['code'],
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' },
    // Proofs of possession (DPoP) in the algorithms the product's resource servers verify too;
    // client assertions and request objects signed with asymmetric keys only (no shared-secret HMAC, never `none`).
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256', 'ES256', 'EdDSA'],
      dPoPSigningAlgValues: [...DPOP_ALGORITHMS],
      clientAuthSigningAlgValues: [...CLIENT_KEY_ALGORITHMS],
      requestObjectSigningAlgValues: [...CLIENT_KEY_ALGORITHMS],
    },
    // An application authenticates with its secret (HTTP Basic, or in the form as many clients do by
    // default: the provider takes either for a secret) or a JWT signed with its key (RFC 7523); a public one not at all.
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    // The FAPI profile an application is under (clients.ts sets it from the application's switch).
    extraClientMetadata: {
      properties: [FAPI_PROFILE_METADATA],
      validator: (_ctx, key, value) => {
        if (key === FAPI_PROFILE_METADATA && value !== undefined && value !== '2.0') throw new errors.InvalidClientMetadata(`${FAPI_PROFILE_METADATA} must be 2.0`);
      },
    },
    // PKCE (S256 only) of public clients and of those under the FAPI 2.0 profile.
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' || isFapi2(client) },
    rotateRefreshToken: true,
    // Every client allowed the refresh_token grant gets one (no offline_access + prompt=consent
    // dance); without offline_access the refresh token ends with the session.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    conformIdTokenClaims: false,
    // The provider refuses outgoing calls to special-use addresses (SSRF protection); a deployment
    // whose applications live on a private network can allow them.
    fetch: (url, init) =>
      globalThis.fetch(url, config.oidc.allowPrivateNetworkRequests ? { ...init, dispatcher: undefined } as RequestInit : init),
  };
}

/** The lifetimes in force now (the `TokenLifetimes` security setting, changed at run time). */
type Lifetimes = () => TokenLifetimes;

/** What a session signed in as another user issues ends with that impersonation (the request noted it when it found the account). */
function lifetimes(adminAudience: string, now: Lifetimes, impersonations: SessionImpersonations): Configuration['ttl'] {
  const cap = (ctx: KoaContextWithOIDC, seconds: number) => impersonations.cap(ctx, seconds);
  return {
    AccessToken: capped(cap, (_ctx, token: { aud?: unknown }) => (token.aud === adminAudience ? now().adminApiAccessTokenSeconds : now().accessTokenSeconds)),
    AuthorizationCode: TTL.AuthorizationCode,
    ClientCredentials: () => now().clientCredentialsSeconds,
    IdToken: capped(cap, () => now().idTokenSeconds),
    Interaction: TTL.Interaction,
    DeviceCode: TTL.DeviceCode,
    Session: capped(cap, () => now().sessionSeconds),
    // A grant lasts as long as the session that holds it.
    Grant: capped(cap, () => now().sessionSeconds),
    RefreshToken: capped(cap, refreshTokenTtl(now)) as never,
  };
}

/** The provider session's cookie: its name and options (Identify As sets it too, outside the provider). */
export const SESSION_COOKIE = { name: 'gh_session', options: { httpOnly: true, sameSite: 'lax', signed: true } } as const;

/** The provider's short-lived cookies (a sign-in in progress): the interaction cookie must reach the sign-in API, not only the page the browser is sent to. */
const INTERACTION_COOKIE = { httpOnly: true, sameSite: 'lax', signed: true, path: '/' } as const;

function cookies(context: AppContext): Configuration['cookies'] {
  return {
    keys: cookieKeys(context),
    names: { session: SESSION_COOKIE.name, interaction: 'gh_interaction', resume: 'gh_resume' },
    long: { ...SESSION_COOKIE.options },
    short: { ...INTERACTION_COOKIE },
  };
}

type Features = NonNullable<Configuration['features']>;

/** Sign-out: the confirmation (automatic from this site), then the end page in the visitor's language. */
const rpInitiatedLogout = (i18n: AppContext['i18n']): Features['rpInitiatedLogout'] => ({
  enabled: true,
  logoutSource: async (ctx, form) => {
    ctx.type = 'html';
    // Only a navigation from this site (the user's "Close session") signs out without a click.
    const fromThisSite = ctx.get('sec-fetch-site') === 'same-origin';
    ctx.body = logoutPage(form, fromThisSite ? (ctx.state.cspNonce as string) : undefined);
  },
  postLogoutSuccessSource: async (ctx) => {
    const language = resolveLanguage(ctx.get('accept-language'));
    const t = (key: string) => i18n.t(key, { lng: language }) as string;
    ctx.type = 'html';
    ctx.body = loggedOutPage({ language, title: t('account.signed_out_title'), message: t('account.signed_out'), home: t('account.back_home') });
  },
});

/**
 * Two resource servers, both taking JWTs: the admin API (the `admin` scope, the console's users
 * only) and the external API (the `external` scope, applications' client credentials only).
 */
function resourceIndicators(config: Config, now: Lifetimes): Features['resourceIndicators'] {
  const adminAudience = config.oidc.adminApiAudience;
  const externalAudience = config.oidc.externalApiAudience;
  const mayUseAdminApi = adminApiPolicy(config);
  const mayUseExternalApi = externalApiPolicy(config);
  return {
    enabled: true,
    defaultResource: async (ctx, client, oneOf) => oneOf ?? (mayUseAdminApi(ctx, client.clientId) ? adminAudience : undefined),
    useGrantedResource: async () => true,
    getResourceServerInfo: async (ctx, resource, client) => {
      if (resource === externalAudience) {
        if (!mayUseExternalApi(ctx, client.clientId)) throw new errors.InvalidTarget('the external API is only available to applications, through client_credentials');
        return {
          scope: EXTERNAL_API_SCOPE,
          audience: externalAudience,
          accessTokenTTL: now().clientCredentialsSeconds,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      }
      if (resource !== adminAudience) throw new errors.InvalidTarget();
      if (!mayUseAdminApi(ctx, client.clientId)) throw new errors.InvalidTarget('the admin API is only available to the administration console');
      return {
        scope: ADMIN_API_SCOPE,
        audience: adminAudience,
        accessTokenTTL: now().adminApiAccessTokenSeconds,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      };
    },
  };
}

function features(config: Config, now: Lifetimes, i18n: AppContext['i18n']): Features {
  return {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    // A client may introspect the tokens issued to it and those naming it as audience; it may
    // only revoke its own.
    introspection: {
      enabled: true,
      allowedPolicy: async (ctx, client, token) =>
        token.clientId === client.clientId || audienceOf(token).includes(client.clientId),
    },
    revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
    userinfo: { enabled: true },
    backchannelLogout: { enabled: true },
    rpInitiatedLogout: rpInitiatedLogout(i18n),
    resourceIndicators: resourceIndicators(config, now),
    // Pushed authorization requests (RFC 9126) for every client, required of those whose application says so.
    pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: false },
    // Request objects (RFC 9101, JAR), signed with the application's key; required of those whose application says so.
    requestObjects: { enabled: true, requireSignedRequestObject: false },
    // The FAPI 2.0 Security Profile for the applications under it (PKCE required, the issuer as client assertions' audience).
    fapi: {
      enabled: true,
      profile: (_ctx, client) => (isFapi2(client) ? '2.0' : undefined),
    },
  };
}



/**
 * Sender-constrained tokens (DPoP, RFC 9449): a token request with a proof gets tokens bound to its
 * key, and an application that requires it (`dpop_bound_access_tokens`) gets none without one. The
 * token endpoint hands out nonces (`DPoP-Nonce`, RFC 9449 §8) from a secret derived from the
 * encryption key, so every node accepts another's; a client whose clock is off is told to use one
 * rather than refused. They are not required of clients that send a fresh proof.
 */
function proofOfPossession(context: AppContext): Features['dPoP'] {
  return { enabled: true, nonceSecret: context.secrets.deriveKey('oidc-dpop-nonce') };
}

/** First-party applications (this product's SPAs and declared company apps) skip consent. */
function firstPartyGrants(context: AppContext, registry: ClientRegistry): NonNullable<Configuration['loadExistingGrant']> {
  const { config } = context;
  const adminAudience = config.oidc.adminApiAudience;
  const mayUseAdminApi = adminApiPolicy(config);
  return async (ctx) => {
    const { oidc } = ctx;
    const app = await registry.find(oidc.client!.clientId);
    // A sign-in started before its application was stopped does not finish either.
    if (app?.status === 'Stopped') throw new errors.AccessDenied('the application is stopped');
    // The application ended this account's access to it (its LockUser): no sign-in to it finishes.
    if (app && (await isApplicationAccessBlocked(context.dataSource, app.id, oidc.session!.accountId!))) {
      throw new errors.AccessDenied('access to this application was ended for this account');
    }
    const grantId = oidc.result?.consent?.grantId || oidc.session!.grantIdFor(oidc.client!.clientId);
    const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
    // A device the user confirmed gets what its confirmation page listed, as a consent would give it.
    if (!app?.isFirstParty && !isConfirmedDevice(ctx)) return existing;
    const grant = existing ?? new oidc.provider.Grant({ clientId: oidc.client!.clientId, accountId: oidc.session!.accountId! });
    const requested = String(oidc.params?.scope ?? 'openid');
    grant.addOIDCScope(requested);
    const resource = oidc.params?.resource ?? (oidc.client!.clientId === config.oidc.adminClientId ? adminAudience : undefined);
    if (resource === adminAudience && mayUseAdminApi(ctx, oidc.client!.clientId)) grant.addResourceScope(adminAudience, ADMIN_API_SCOPE);
    await grant.save();
    return grant;
  };
}

/**
 * The admin API reads the caller's global roles from its JWT access token. A token issued in a
 * session signed in as another user names the God user acting (`act`, RFC 8693), whatever its
 * audience: in the JWT, or in the stored claims of an opaque token.
 */
function extraTokenClaims(adminAudience: string, directory: AccountDirectory, impersonations: SessionImpersonations, exchange: TokenExchange): Configuration['extraTokenClaims'] {
  return async (ctx, token) => {
    // An exchanged token: the actor chain and the user's roles in its audience, decided by the exchange.
    const exchanged = exchange.claimsOf(token);
    if (exchanged) return { ...exchanged };
    const { accountId, sessionUid } = token as { accountId?: string; sessionUid?: string };
    if (!accountId) return undefined;
    const impersonation = await impersonations.liveFor(ctx, sessionUid);
    const act = impersonation ? { act: actClaim(impersonation) } : undefined;
    if (token.aud !== adminAudience) return act;
    return { roles: await directory.roleNames(accountId, IDENTITY_APPLICATION_ID), ...act };
  };
}

/**
 * The provider's prompts, and one more reason to sign in: the session is one a God user was
 * signed in to as another user, and that has ended (by its time) since. The session's grants end
 * and it is signed out, under a new uid: whoever signs in next in this browser gets a session of
 * their own, whose tokens name no actor. An application asking silently (prompt=none) gets
 * login_required.
 */
function interactionsPolicy(impersonations: SessionImpersonations, store: OidcStore) {
  const policy = interactionPolicy.base();
  policy.get('login')!.checks.add(
    new interactionPolicy.Check('identify_as_ended', 'signing in as another user has ended', 'login_required', async (ctx) => {
      const { session } = ctx.oidc;
      // Nobody signed in (a browser's first visit): nothing to end, and nothing to read.
      const impersonation = session?.accountId ? await impersonations.ofSession(session.uid) : undefined;
      if (!session || !impersonation || isLive(impersonation)) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      for (const { grantId } of Object.values(session.authorizations ?? {})) if (grantId) await store.revokeGrant(grantId);
      // The provider's session proxy takes no accountId but a string: the property goes; the other
      // assignments mark the session changed, so it is saved so.
      delete (session as { accountId?: string }).accountId;
      session.authorizations = {};
      session.uid = randomUUID();
      return interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  // A device's request waits for the signed-in user's confirmation.
  policy.add(deviceConfirmationPrompt(impersonations), 1);
  return policy;
}

function errorRenderer(logger: AppContext['logger']): Configuration['renderError'] {
  return async (ctx, out, error) => {
    ctx.type = 'html';
    ctx.body = errorPage({
      title: 'Connexion impossible / Sign-in failed',
      message: out.error_description ?? out.error,
      detail: out.error,
    });
    if ((error as { status?: number }).status === undefined || (error as { status: number }).status >= 500) {
      logger.error({ err: error }, 'provider error');
    }
  };
}

/** What the device flow needs from the provider around it. */
function deviceFlowDeps(context: AppContext, options: ProviderOptions): DeviceFlowDeps {
  const { registry, directory, impersonations } = options;
  return { context, registry, directory, impersonations, interactionUrl, interactionCookie: INTERACTION_COOKIE };
}

/** The provider's whole configuration, assembled from its named parts. */
function configure(context: AppContext, options: ProviderOptions, exchange: TokenExchange): Configuration {
  const { config, logger } = context;
  const adminAudience = config.oidc.adminApiAudience;
  const settings = securitySettings(context);
  const now: Lifetimes = () => settings.current().TokenLifetimes;
  return {
    ...protocol(config, options),
    ttl: lifetimes(adminAudience, now, options.impersonations),
    cookies: cookies(context),
    interactions: {
      url: (ctx, interaction) => (interaction.prompt.name === DEVICE_CONFIRMATION ? deviceConfirmationUrl(ctx, interaction) : interactionUrl(interaction.uid)),
      policy: interactionsPolicy(options.impersonations, options.store),
    },
    extraParams: { client_id: deviceAuthorizationLimit(context) },
    features: { ...features(config, now, context.i18n), dPoP: proofOfPossession(context), deviceFlow: deviceFlow(deviceFlowDeps(context, options)) },
    loadExistingGrant: firstPartyGrants(context, options.registry),
    extraTokenClaims: extraTokenClaims(adminAudience, options.directory, options.impersonations, exchange),
    renderError: errorRenderer(logger),
  };
}

/**
 * Every answer of the provider gets a strict policy up front: its pages allow the scripts carrying
 * this nonce, and a form_post answer adds the hash of its own script to it.
 */
async function koaPagePolicy(ctx: Context, next: () => Promise<unknown>): Promise<void> {
  const nonce = cspNonce();
  ctx.state.cspNonce = nonce;
  ctx.set('Content-Security-Policy', pageContentSecurityPolicy({ scriptNonce: nonce, formAction: false }));
  await next();
}

/**
 * A stopped application has no grant (clients.ts) and cannot finish a sign-in (loadExistingGrant):
 * whatever protocol error that gave, the user is told plainly.
 */
function koaStoppedApplication(registry: ClientRegistry) {
  return async (ctx: Context, next: () => Promise<unknown>): Promise<void> => {
    await next();
    if (!SIGN_IN_PATHS.test(ctx.path) || !('oidc' in ctx)) return;
    const clientId = (ctx as unknown as KoaContextWithOIDC).oidc.client?.clientId;
    const app = clientId ? await registry.find(clientId) : undefined;
    if (app?.status !== 'Stopped') return;
    ctx.remove('Location');
    ctx.status = 503;
    ctx.type = 'html';
    ctx.body = stoppedPage(app);
  };
}

/**
 * One session-log row per token issued to an application for a user, written in the background;
 * in a session signed in as another user, the row names the God user acting.
 */
function sessionLogger(context: AppContext, options: ProviderOptions) {
  const { registry, directory, sessionLog, impersonations } = options;
  const record = async (accountId: string, clientId: string, date: Date, actorId: string | undefined) => {
    const app = await registry.find(clientId);
    const user = await directory.find(accountId);
    sessionLog.add({
      userId: accountId,
      userName: user?.user_name ?? accountId,
      roles: app ? await directory.roleNames(accountId, app.id) : [],
      applicationName: app?.name ?? clientId,
      date,
      actorId,
    });
  };
  return (ctx: KoaContextWithOIDC): void => {
    const { entities } = ctx.oidc;
    const accountId = entities.Account?.accountId;
    const clientId = entities.Client?.clientId;
    if (!accountId || !clientId) return;
    const actorId = impersonations.notedFor(ctx)?.actorId;
    record(accountId, clientId, new Date(), actorId).catch((error: Error) => context.logger.warn({ err: error.message }, 'session log failed'));
  };
}

/** A configured oidc-provider instance over the database, the applications and the signing keys. */
export function createProvider(context: AppContext, options: ProviderOptions): Provider {
  const { config, logger } = context;
  // The registry, directory, session log and store are owned by the ProviderHost: they outlive a
  // provider rebuilt after a key rotation.
  const settings = securitySettings(context);
  const exchange = new TokenExchange({
    context,
    registry: options.registry,
    directory: options.directory,
    keys: options.keys,
    findAccount: accountFinder(options.directory, options.registry, options.impersonations),
    accessTokenSeconds: () => settings.current().TokenLifetimes.accessTokenSeconds,
  });
  const provider = new Provider(config.oidc.issuer, configure(context, options, exchange));
  exchange.register(provider);
  provider.proxy = config.server.trustProxy;
  provider.use(koaPagePolicy);
  provider.use(koaStoppedApplication(options.registry));
  provider.use(koaDeviceFlow(deviceFlowDeps(context, options)));
  // The sessions a user sees (and ends) in "My security": noted at each authorization granted.
  const sessions = new SessionRecorder(context, options.impersonations);
  provider.use(sessions.middleware);
  provider.on('authorization.success', sessions.authorized);
  provider.on('grant.success', sessionLogger(context, options));
  countGrants(provider, context.metrics);
  provider.on('backchannel.error', (_ctx: unknown, error: Error, client: { clientId: string }) =>
    logger.warn({ err: error.message, clientId: client?.clientId }, 'back-channel logout failed'),
  );
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: Error) => {
    if (!isDatabaseUnavailable(error)) return logger.error({ err: error }, 'provider server error');
    // The database is out of reach for a moment: the client may try again shortly (RFC 6749's
    // temporarily_unavailable), rather than be told the server failed.
    logger.warn({ err: error.message }, 'provider: the database is unavailable');
    ctx.status = 503;
    ctx.set('Retry-After', '1');
    if (ctx.body && typeof ctx.body === 'object' && !Buffer.isBuffer(ctx.body)) {
      ctx.body = { error: 'temporarily_unavailable', error_description: 'the service is temporarily unavailable, try again shortly' };
    }
  });
  return provider;
}
