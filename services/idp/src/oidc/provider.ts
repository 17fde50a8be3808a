import { IDENTITY_APPLICATION_ID, type AppContext, type BufferedWriter, type SessionLogEntry } from '@gatehouse/core';
import Provider, { errors, type Configuration, type JWK, type KoaContextWithOIDC } from 'oidc-provider';
import { CLAIMS, accountFinder, type AccountDirectory } from './account.js';
import type { ClientRegistry } from './clients.js';
import { errorPage, loggedOutPage, logoutPage } from './pages.js';
import type { OidcStore } from './oidc-store.js';
import { PostgresAdapter } from './postgres-adapter.js';
import { TTL, refreshTokenTtl } from './ttl.js';

export const ADMIN_API_SCOPE = 'admin';

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
  /** Storage of the provider's models; the database by default. */
  adapterFactory?: (model: string) => unknown;
}

function audienceOf(token: object): string[] {
  const aud = (token as { aud?: string | string[] }).aud;
  return aud === undefined ? [] : Array.isArray(aud) ? aud : [aud];
}

/** Cookie-signing keys derived from the encryption key: stable across restarts and nodes. */
export function cookieKeys(context: AppContext): string[] {
  return [context.secrets.deriveKey('oidc-cookie-signing').toString('base64url')];
}

/** A configured oidc-provider instance over the database, the applications and the signing keys. */
export function createProvider(context: AppContext, options: ProviderOptions): Provider {
  const { config, logger } = context;
  const { registry } = options;
  // Owned by the ProviderHost: they outlive a provider rebuilt after a key rotation.
  const { directory, sessionLog, store } = options;
  const adminAudience = config.oidc.adminApiAudience;

  const clientAdapter = {
    async find(clientId: string) {
      return (await registry.find(clientId))?.metadata;
    },
  };
  const adapter = (model: string) =>
    model === 'Client' ? clientAdapter : (options.adapterFactory?.(model) ?? new PostgresAdapter(model, store));

  const configuration: Configuration = {
    adapter: adapter as unknown as Configuration['adapter'],
    findAccount: accountFinder(directory, registry),
    jwks: { keys: options.keys },
    claims: CLAIMS,
    scopes: ['openid', 'offline_access', 'profile', 'email', 'roles'],
    responseTypes: ['code'],
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' },
    enabledJWA: { idTokenSigningAlgValues: ['RS256', 'ES256', 'EdDSA'] },
    extraClientMetadata: { properties: [] },
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    rotateRefreshToken: true,
    // Every client allowed the refresh_token grant gets one (no offline_access + prompt=consent
    // dance); without offline_access the refresh token ends with the session.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    conformIdTokenClaims: false,
    // The provider refuses outgoing calls to special-use addresses (SSRF protection); a deployment
    // whose applications live on a private network can allow them.
    fetch: (url, init) =>
      globalThis.fetch(url, config.oidc.allowPrivateNetworkRequests ? { ...init, dispatcher: undefined } as RequestInit : init),
    ttl: {
      AccessToken: (_ctx, token) => (token.aud === adminAudience ? TTL.AdminApiAccessToken : TTL.AccessToken),
      AuthorizationCode: TTL.AuthorizationCode,
      ClientCredentials: TTL.ClientCredentials,
      IdToken: TTL.IdToken,
      Interaction: TTL.Interaction,
      Session: TTL.Session,
      Grant: TTL.Grant,
      RefreshToken: refreshTokenTtl as never,
    },
    cookies: {
      keys: cookieKeys(context),
      names: { session: 'gh_session', interaction: 'gh_interaction', resume: 'gh_resume' },
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      // The interaction cookie must reach the sign-in API, not only the page the browser is sent to.
      short: { httpOnly: true, sameSite: 'lax', signed: true, path: '/' },
    },
    interactions: { url: (_ctx, interaction) => interactionUrl(interaction.uid) },
    features: {
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
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = loggedOutPage();
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, client, oneOf) => oneOf ?? (client.clientId === config.oidc.adminClientId ? adminAudience : undefined),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== adminAudience) throw new errors.InvalidTarget();
          return {
            scope: ADMIN_API_SCOPE,
            audience: adminAudience,
            accessTokenTTL: TTL.AdminApiAccessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    // First-party applications (this product's SPAs and declared company apps) skip consent.
    loadExistingGrant: async (ctx) => {
      const { oidc } = ctx;
      const grantId = oidc.result?.consent?.grantId || oidc.session!.grantIdFor(oidc.client!.clientId);
      const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      const app = await registry.find(oidc.client!.clientId);
      if (!app?.isFirstParty) return existing;
      const grant = existing ?? new oidc.provider.Grant({ clientId: oidc.client!.clientId, accountId: oidc.session!.accountId! });
      const requested = String(oidc.params?.scope ?? 'openid');
      grant.addOIDCScope(requested);
      const resource = oidc.params?.resource ?? (oidc.client!.clientId === config.oidc.adminClientId ? adminAudience : undefined);
      if (resource === adminAudience) grant.addResourceScope(adminAudience, ADMIN_API_SCOPE);
      await grant.save();
      return grant;
    },
    // The admin API reads the caller's global roles from its JWT access token.
    extraTokenClaims: async (_ctx, token) => {
      if (token.aud !== adminAudience || !('accountId' in token) || !token.accountId) return undefined;
      return { roles: await directory.roleNames(token.accountId as string, IDENTITY_APPLICATION_ID) };
    },
    renderError: async (ctx, out, error) => {
      ctx.type = 'html';
      ctx.body = errorPage({
        title: 'Connexion impossible / Sign-in failed',
        message: out.error_description ?? out.error,
        detail: out.error,
      });
      if ((error as { status?: number }).status === undefined || (error as { status: number }).status >= 500) {
        logger.error({ err: error }, 'provider error');
      }
    },
  };

  const provider = new Provider(config.oidc.issuer, configuration);
  provider.proxy = config.server.trustProxy;

  // A stopped application cannot start a sign-in: say so plainly instead of a protocol error.
  provider.use(async (ctx, next) => {
    if (ctx.path === '/auth' && (ctx.method === 'GET' || ctx.method === 'POST')) {
      const clientId = ctx.method === 'GET' ? ctx.query.client_id : undefined;
      const app = typeof clientId === 'string' ? await registry.find(clientId) : undefined;
      if (app?.status === 'Stopped') {
        ctx.status = 503;
        ctx.type = 'html';
        ctx.body = errorPage({
          title: `${app.displayName} est arrêtée / is stopped`,
          message: `L’application ${app.displayName} est arrêtée : la connexion n’est pas possible pour le moment. / ${app.displayName} is stopped: signing in is not possible for now.`,
        });
        return;
      }
    }
    await next();
  });

  // One session-log row per token issued to an application for a user, written in the background.
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const { entities } = ctx.oidc;
    const accountId = entities.Account?.accountId;
    const clientId = entities.Client?.clientId;
    if (!accountId || !clientId) return;
    const date = new Date();
    void (async () => {
      const app = await registry.find(clientId);
      const user = await directory.find(accountId);
      sessionLog.add({
        userId: accountId,
        userName: user?.user_name ?? accountId,
        roles: app ? await directory.roleNames(accountId, app.id) : [],
        applicationName: app?.name ?? clientId,
        date,
      });
    })().catch((error: Error) => logger.warn({ err: error.message }, 'session log failed'));
  });
  provider.on('backchannel.error', (_ctx: unknown, error: Error, client: { clientId: string }) =>
    logger.warn({ err: error.message, clientId: client?.clientId }, 'back-channel logout failed'),
  );
  provider.on('server_error', (_ctx: unknown, error: Error) => logger.error({ err: error }, 'provider server error'));

  return provider;
}
