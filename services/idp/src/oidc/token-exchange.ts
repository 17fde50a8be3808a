import { DPoPError } from '@gatehouse/core/http';
import { isApplicationAccessBlocked } from '@gatehouse/core/access';
import { scopesOfRoles, writeAuthenticationLog, type AppContext } from '@gatehouse/core';
import { createLocalJWKSet, jwtVerify, type JWK as JoseJwk } from 'jose';
import Provider, { errors, type JWK, type KoaContextWithOIDC } from 'oidc-provider';
import type { AccountDirectory } from './account.js';
import { TOKEN_EXCHANGE_GRANT, type ClientApplication, type ClientRegistry } from './clients.js';

/** The one token type exchanged, given and issued (RFC 8693 §3). */
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** The request's parameters (RFC 8693 §2.1); `resource` is read only to be refused. */
const PARAMETERS = ['subject_token', 'subject_token_type', 'actor_token', 'actor_token_type', 'requested_token_type', 'audience', 'scope', 'resource'];

/** Members of a JWK that only its private half has. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

export interface TokenExchangeDeps {
  context: AppContext;
  registry: ClientRegistry;
  directory: AccountDirectory;
  /** The provider's signing keys (their public halves verify a JWT subject token). */
  keys: JWK[];
  /** The provider's account lookup: a user who may no longer sign in, or an ended impersonation, finds none. */
  findAccount: (ctx: KoaContextWithOIDC, sub: string, token?: object) => Promise<{ accountId: string } | undefined>;
  /** The access-token lifetime in force now, in seconds. */
  accessTokenSeconds: () => number;
}

/** What an exchanged token carries besides the usual claims: the actor chain and the user's roles in the audience. */
export interface ExchangeClaims {
  act: { sub: string; act?: unknown };
  roles: string[];
}

/** The subject token as the provider stored it. */
interface StoredAccessToken {
  jti: string;
  accountId?: string;
  clientId: string;
  aud?: string | string[];
  exp?: number;
  jkt?: string;
  grantId?: string;
  sessionUid?: string;
  expiresWithSession?: boolean;
  sid?: string;
  extra?: { act?: unknown };
  isValid?: boolean;
}

type Params = Record<string, string | undefined>;

/** invalid_grant naming the reason (the provider's own InvalidGrant keeps its reason out of the answer). */
const grantRefused = (description: string) => new errors.CustomOIDCProviderError('invalid_grant', description);

function audienceOf(token: StoredAccessToken): string[] {
  return token.aud === undefined ? [] : Array.isArray(token.aud) ? token.aud : [token.aud];
}

/** The request's shape: one subject token, an access token, one audience, no actor token, nothing but an access token asked for. */
function checkShape(params: Params): { subjectToken: string; audience: string; scope: string[] | undefined } {
  if (!params.subject_token) throw new errors.InvalidRequest("missing required parameter 'subject_token'");
  if (params.subject_token_type !== ACCESS_TOKEN_TYPE) throw new errors.InvalidRequest(`subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
  if (params.actor_token || params.actor_token_type) {
    throw new errors.InvalidRequest('actor_token is not supported: the application making the request is the actor');
  }
  if (params.requested_token_type && params.requested_token_type !== ACCESS_TOKEN_TYPE) {
    throw new errors.InvalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE}`);
  }
  if (params.resource) throw new errors.InvalidTarget('name the target application by its client_id in audience, not in resource');
  if (!params.audience) throw new errors.InvalidRequest("missing required parameter 'audience' (the client_id of the target application)");
  const scope = params.scope?.split(' ').filter(Boolean);
  return { subjectToken: params.subject_token, audience: params.audience, scope: scope?.length ? scope : undefined };
}

/**
 * Token exchange (RFC 8693) for applications' backends: an application that holds a user's access
 * token (issued to it, or naming it as audience) gets, for an application it is allowed to call
 * (configured on it), a JWT access token for that audience naming the user (`sub`), itself as the
 * actor (`act`, with any earlier actor nested), and the user's roles in the audience, never more;
 * scopes only among those the user's roles there carry. The new token lives no longer than the
 * subject token, ends with the user's grant, and is bound to the request's DPoP key when it has
 * one (a subject token bound to a key is exchanged only with a proof of that key). Every exchange,
 * granted or refused, is written to the user's authentication log.
 */
export class TokenExchange {
  /** The claims of each token being issued, read by extraTokenClaims when the token is formatted. */
  private readonly claims = new WeakMap<object, ExchangeClaims>();
  private readonly verificationKeys: ReturnType<typeof createLocalJWKSet>;

  constructor(private readonly deps: TokenExchangeDeps) {
    const publicKeys = deps.keys.map((key) => Object.fromEntries(Object.entries(key).filter(([member]) => !PRIVATE_MEMBERS.includes(member))) as JoseJwk);
    this.verificationKeys = createLocalJWKSet({ keys: publicKeys });
  }

  /** Adds the grant to a provider. */
  register(provider: Provider): void {
    provider.registerGrantType(TOKEN_EXCHANGE_GRANT, (ctx: KoaContextWithOIDC) => this.handle(ctx), PARAMETERS);
  }

  /** The claims an exchanged token carries, or undefined for any other token. */
  claimsOf(token: object): ExchangeClaims | undefined {
    return this.claims.get(token);
  }

  private async handle(ctx: KoaContextWithOIDC): Promise<void> {
    const client = ctx.oidc.client!;
    const params = ctx.oidc.params as Params;
    let subject: StoredAccessToken | undefined;
    try {
      const shape = checkShape(params);
      const keyThumbprint = await this.proofKey(ctx);
      subject = await this.subjectToken(ctx, shape.subjectToken);
      await this.issue(ctx, subject, shape, keyThumbprint);
      await this.log(ctx, subject.accountId!, 'Success', `token exchange by ${client.clientId} for ${shape.audience}`, shape.audience);
    } catch (error) {
      if (subject?.accountId && error instanceof errors.OIDCProviderError) {
        const description = (error as { error_description?: string }).error_description ?? error.message;
        await this.log(ctx, subject.accountId, 'Failure', `token exchange by ${client.clientId} refused: ${description}`, params.audience ?? null);
      }
      throw error;
    }
  }

  /**
   * The key the request proves with DPoP, or undefined without a proof; an application that must
   * bind its tokens gets none without one.
   */
  private async proofKey(ctx: KoaContextWithOIDC): Promise<string | undefined> {
    const { dpop } = this.deps.context;
    let thumbprint: string | undefined;
    try {
      thumbprint = await dpop.tokenRequestKey(dpop.requestOf(ctx.req, undefined, ctx.originalUrl));
    } catch (error) {
      if (error instanceof DPoPError) throw new errors.InvalidDpopProof(`invalid DPoP proof (${error.reason})`);
      throw error;
    }
    if (!thumbprint && ctx.oidc.client!.dpopBoundAccessTokens) throw new errors.InvalidDpopProof('DPoP proof JWT not provided');
    return thumbprint;
  }

  /**
   * A live access token of a user, issued by this provider to the calling application or naming it
   * as audience: opaque (looked up) or JWT (signature checked, then looked up, so a revoked one fails).
   */
  private async subjectToken(ctx: KoaContextWithOIDC, value: string): Promise<StoredAccessToken> {
    const { AccessToken } = ctx.oidc.provider;
    let token: StoredAccessToken | undefined;
    if (value.split('.').length === 3) {
      const jti = await jwtVerify(value, this.verificationKeys, { issuer: ctx.oidc.issuer })
        .then(({ payload }) => payload.jti)
        .catch(() => undefined);
      token = jti ? ((await AccessToken.find(jti)) as unknown as StoredAccessToken | undefined) : undefined;
    } else {
      token = (await AccessToken.find(value)) as unknown as StoredAccessToken | undefined;
    }
    if (!token || token.isValid === false) throw grantRefused('the subject token is invalid, expired or revoked');
    const clientId = ctx.oidc.client!.clientId;
    if (token.clientId !== clientId && !audienceOf(token).includes(clientId)) {
      throw grantRefused('the subject token was neither issued to this application nor meant for it');
    }
    if (!token.accountId) throw grantRefused('the subject token names no user');
    return token;
  }

  /** The audience this application may exchange for, running, and the user's roles and scopes there. */
  private async target(ctx: KoaContextWithOIDC, userId: string, audience: string, requested: string[] | undefined) {
    const { registry, directory, context } = this.deps;
    const caller = (await registry.find(ctx.oidc.client!.clientId)) as ClientApplication;
    if (!caller.exchangeAudiences.some((allowed) => allowed.name === audience)) {
      throw new errors.InvalidTarget(`this application may not exchange tokens for ${audience}`);
    }
    const app = await registry.find(audience);
    if (!app || app.status === 'Stopped') throw new errors.InvalidTarget(`${audience} is stopped or disabled`);
    if (await isApplicationAccessBlocked(context.dataSource, app.id, userId)) {
      throw grantRefused(`access to ${audience} was ended for this user`);
    }
    const roles = await directory.roleNames(userId, app.id);
    if (!roles.length) throw grantRefused(`the user holds no role in ${audience}`);
    const held = await scopesOfRoles(context.dataSource, app.id, roles);
    const missing = (requested ?? []).filter((scope) => !held.includes(scope));
    if (missing.length) throw new errors.InvalidScope(`the user's roles in ${audience} do not give: ${missing.join(' ')}`, missing.join(' '));
    return { app, roles, scope: requested ?? held };
  }

  private async issue(
    ctx: KoaContextWithOIDC,
    subject: StoredAccessToken,
    shape: ReturnType<typeof checkShape>,
    keyThumbprint: string | undefined,
  ): Promise<void> {
    const { provider } = ctx.oidc;
    const client = ctx.oidc.client!;
    // A subject token bound to a key is exchanged only by the holder of that key.
    if (subject.jkt && subject.jkt !== keyThumbprint) throw grantRefused('the subject token is bound to a key: send a DPoP proof of that key');
    const account = await this.deps.findAccount(ctx, subject.accountId!, subject);
    if (!account) throw grantRefused('the user of the subject token may no longer sign in');
    const { app, roles, scope } = await this.target(ctx, account.accountId, shape.audience, shape.scope);
    const remaining = subject.exp === undefined ? Number.POSITIVE_INFINITY : subject.exp - Math.floor(Date.now() / 1000);
    const expiresIn = Math.max(1, Math.min(this.deps.accessTokenSeconds(), remaining));
    const token = new provider.AccessToken({
      accountId: account.accountId,
      client,
      gty: TOKEN_EXCHANGE_GRANT,
      scope: scope.join(' ') || undefined,
      expiresIn,
      // It ends with the user's grant to the calling application (sign-out, revocation).
      grantId: subject.grantId,
      sessionUid: subject.sessionUid,
      expiresWithSession: subject.expiresWithSession,
      sid: subject.sid,
    } as never);
    token.resourceServer = new provider.ResourceServer(app.name, {
      audience: app.name,
      scope: scope.join(' '),
      accessTokenFormat: 'jwt',
      jwt: { sign: { alg: 'RS256' } },
    } as never);
    if (keyThumbprint) token.setThumbprint('jkt', keyThumbprint);
    const earlierActor = subject.extra?.act;
    this.claims.set(token, { act: { sub: client.clientId, ...(earlierActor ? { act: earlierActor } : {}) }, roles });
    ctx.oidc.entity('AccessToken', token);
    const value = await token.save();
    ctx.body = {
      access_token: value,
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: token.tokenType,
      expires_in: expiresIn,
      ...(token.scope ? { scope: token.scope } : {}),
    };
  }

  private async log(ctx: KoaContextWithOIDC, userId: string, result: 'Success' | 'Failure', reason: string, applicationName: string | null): Promise<void> {
    const user = await this.deps.directory.find(userId);
    await writeAuthenticationLog(this.deps.context.dataSource, {
      userId,
      userName: user?.user_name ?? userId,
      result,
      reason,
      applicationName,
      ip: ctx.ip,
      userAgent: ctx.get('user-agent') || null,
      // An exchange is no sign-in: no sign-in webhook event.
      signIn: false,
    }).catch((error: Error) => this.deps.context.logger.warn({ err: error.message }, 'token exchange log failed'));
  }
}
