import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Koa from 'koa';
import mount from 'koa-mount';
import Provider, { interactionPolicy, type Adapter, type AdapterPayload } from 'oidc-provider';

/** A person at the test authority: what Entra ID would put in the ID token. */
export interface AuthorityAccount {
  oid: string;
  email?: string;
  preferredUsername?: string;
  givenName?: string;
  familyName?: string;
  /** The directory the token says; the authority's own tenant by default. */
  tid?: string;
  /** Set for a guest: the provider that really authenticated the account. */
  idp?: string;
}

/** Minimal in-process storage: the authority lives as long as one test suite. */
function memoryAdapter(store: Map<string, { payload: AdapterPayload; expiresAt?: number }>) {
  return class implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
    }
    async find(id: string) {
      const entry = store.get(this.key(id));
      return entry && (!entry.expiresAt || entry.expiresAt > Date.now()) ? entry.payload : undefined;
    }
    async findByUid(uid: string) {
      for (const [key, entry] of store) if (key.startsWith(`${this.model}:`) && entry.payload.uid === uid) return entry.payload;
      return undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const entry = store.get(this.key(id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

/**
 * A stand-in for Entra ID on 127.0.0.1: an oidc-provider whose issuer has Entra's shape
 * (`{authority}/v2.0`), whose ID tokens carry tid, oid, email, preferred_username and names, and
 * whose sign-in page signs in, without asking, the account a test chose. It can also cancel the
 * sign-in, hang its token endpoint, or stop altogether, as the real one may.
 */
export class MicrosoftAuthority {
  readonly tenantId = randomUUID();
  readonly clientId = randomUUID();
  readonly clientSecret = randomBytes(24).toString('base64url');
  /** Who the next sign-in at the authority signs in as. */
  account: AuthorityAccount | undefined;
  /** When set, the next sign-ins end with this OAuth error (e.g. access_denied: the user cancelled). */
  error: string | undefined;
  /** When true, the token endpoint takes requests and never answers. */
  hangTokenEndpoint = false;
  /** How many code redemptions reached the token endpoint. */
  tokenRequests = 0;

  private readonly cookieKeys = [randomBytes(16).toString('hex')];
  private readonly accounts = new Map<string, AuthorityAccount>();
  private readonly store = new Map<string, { payload: AdapterPayload; expiresAt?: number }>();
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<() => void>();
  private provider: Provider | undefined;
  private mounted: Koa.Middleware | undefined;
  private server: http.Server | undefined;
  private port = 0;

  /** Starts listening; the client is registered once the product's callback URL is known. */
  static async listen(): Promise<MicrosoftAuthority> {
    const authority = new MicrosoftAuthority();
    await authority.start();
    return authority;
  }

  /** What Entra calls the authority: `http://127.0.0.1:<port>/<tenant id>`. */
  get authority(): string {
    return `http://127.0.0.1:${this.port}/${this.tenantId}`;
  }

  get issuer(): string {
    return `${this.authority}/v2.0`;
  }

  /** The product's configuration for this authority (dotted keys for `startTestServer`). */
  config(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      'microsoft.tenantId': this.tenantId,
      'microsoft.clientId': this.clientId,
      'microsoft.clientSecret': this.clientSecret,
      'microsoft.authority': this.authority,
      ...overrides,
    };
  }

  /** Signs the next sign-ins in as this account. */
  signInAs(account: AuthorityAccount): void {
    this.accounts.set(account.oid, account);
    this.account = account;
    this.error = undefined;
  }

  /** Creates the provider with the product's callback as the only redirect URI. */
  async register(redirectUri: string): Promise<void> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const policy = interactionPolicy.base();
    // Entra understands prompt=select_account; here it is one more step the sign-in page resolves.
    policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);
    const provider = new Provider(this.issuer, {
      adapter: memoryAdapter(this.store),
      jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test', alg: 'RS256', use: 'sig' }] },
      cookies: { keys: this.cookieKeys },
      clients: [
        {
          client_id: this.clientId,
          client_secret: this.clientSecret,
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: 'client_secret_post',
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: {
        openid: ['sub', 'tid', 'oid', 'preferred_username', 'idp'],
        email: ['email'],
        profile: ['name', 'given_name', 'family_name'],
      },
      // Like Entra ID, put the profile and e-mail claims in the ID token of a code flow.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      ttl: { AccessToken: 3600, AuthorizationCode: 600, Grant: 3600, IdToken: 3600, Interaction: 3600, Session: 3600 },
      interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      features: { devInteractions: { enabled: false } },
      findAccount: async (_ctx, id) => {
        const account = this.accounts.get(id);
        if (!account) return undefined;
        return {
          accountId: id,
          claims: async () => ({
            sub: `sub-${account.oid}`,
            tid: account.tid ?? this.tenantId,
            oid: account.oid,
            idp: account.idp,
            email: account.email,
            preferred_username: account.preferredUsername ?? account.email,
            given_name: account.givenName,
            family_name: account.familyName,
            name: [account.givenName, account.familyName].filter(Boolean).join(' ') || undefined,
          }),
        };
      },
      loadExistingGrant: async (ctx) => {
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
        grant.addOIDCScope(String(ctx.oidc.params!.scope ?? 'openid'));
        await grant.save();
        return grant;
      },
      renderError: async (ctx, out) => {
        ctx.type = 'json';
        ctx.body = out;
      },
    });
    this.provider = provider;
    this.mounted = mount(`/${this.tenantId}/v2.0`, provider as never);
  }

  private app(): Koa {
    const app = new Koa();
    // Mounted, the provider signs its cookies through this app.
    app.keys = this.cookieKeys;
    const base = `/${this.tenantId}/v2.0`;
    app.use(async (ctx, next) => {
      if (ctx.method === 'POST' && ctx.path === `${base}/token`) {
        this.tokenRequests += 1;
        if (this.hangTokenEndpoint) {
          // Until the caller gives up (or the authority stops): then there is no one left to answer.
          await new Promise<void>((resolve) => {
            this.hanging.add(resolve);
            ctx.req.socket.once('close', resolve);
          });
          ctx.status = 503;
          return;
        }
      }
      await next();
    });
    // The sign-in page: no form, the chosen account (or the chosen error) at once.
    app.use(async (ctx, next) => {
      const provider = this.provider;
      if (!provider || !/^\/interaction\/[\w-]+$/.test(ctx.path)) return next();
      await provider.interactionDetails(ctx.req, ctx.res);
      const result = this.error
        ? { error: this.error, error_description: 'The user canceled the authentication.' }
        : { select_account: {}, login: { accountId: this.account!.oid } };
      const location = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
      ctx.redirect(location);
    });
    app.use((ctx, next) => (this.mounted ? this.mounted(ctx, next) : next()));
    return app;
  }

  /** Listens again (on the same port after a stop); what it stored is kept. */
  async start(): Promise<void> {
    const handle = this.app().callback();
    const server = http.createServer((req, res) => void handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops answering: open connections are cut, new ones refused. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const release of this.hanging) release();
    this.hanging.clear();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}
