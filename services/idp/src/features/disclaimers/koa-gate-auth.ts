import { findPublishedKeys, type AppContext } from '@gatehouse/core';
import { presentedToken } from '@gatehouse/core/http';
import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import type { Context, Next } from 'koa';
import { SIGNING_ALGORITHMS } from '../../oidc/keys.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { proveHolder, refuse } from '../profile/koa-account-auth.js';
import { actingOf, type Acting } from '../identify-as/session-impersonations.js';
import { isActiveAccount } from './repository.js';

/** Who calls the gate: the signed-in user, and the client their access token was issued to. */
export interface GateCaller {
  accountId: string;
  clientId: string;
}

/**
 * A caller as their token names them, with the God user acting when it was issued while one was
 * signed in as them, and the key the token is bound to (DPoP).
 */
type TokenCaller = GateCaller & { acting?: Acting; jkt?: string };

const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Absorbs small clock differences between the provider's nodes. */
const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * The admin console's access token: the only JWT the provider issues (for the admin API), and the
 * only token the console holds. It is not stored, so it is verified against the provider's published
 * keys, and only when issued to the console itself; the account must still be active, since a lock
 * cannot revoke a JWT.
 */
async function consoleCaller(context: AppContext, token: string): Promise<TokenCaller | undefined> {
  const { issuer, adminApiAudience, adminClientId } = context.config.oidc;
  const rows = await findPublishedKeys(context.dataSource);
  const keys = createLocalJWKSet({ keys: rows.map((row) => ({ ...row.public_jwk, kid: row.kid }) as JWK) });
  const verified = await jwtVerify(token, keys, {
    issuer,
    audience: adminApiAudience,
    algorithms: [...SIGNING_ALGORITHMS],
    typ: 'at+jwt',
    requiredClaims: ['sub', 'exp'],
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
  }).catch(() => undefined);
  const payload = verified?.payload;
  const client = payload?.client_id ?? payload?.azp;
  if (!payload || client !== adminClientId || typeof payload.sub !== 'string' || !UUID.test(payload.sub)) return undefined;
  // A `cnf` other than a key thumbprint (a certificate) is a binding this API cannot check.
  const { cnf } = payload as { cnf?: { jkt?: unknown } };
  if (cnf !== undefined && (typeof cnf?.jkt !== 'string' || !cnf.jkt)) return undefined;
  if (!(await isActiveAccount(context.dataSource, payload.sub))) return undefined;
  return { accountId: payload.sub, clientId: adminClientId, acting: actingOf(payload), jkt: cnf?.jkt as string | undefined };
}

/** An opaque access token of any client, looked up through the provider: revocation and expiry apply. */
async function opaqueCaller(host: ProviderHost, token: string): Promise<TokenCaller | undefined> {
  const found = await host.current.AccessToken.find(token);
  if (!found || found.isExpired || !found.accountId || !found.clientId || found['x5t#S256'] !== undefined) return undefined;
  return { accountId: found.accountId, clientId: String(found.clientId), acting: actingOf(found.extra), jkt: found.jkt };
}

/**
 * Token authentication of the disclaimer gate, which relying applications call as well as the
 * product's own SPAs: a user's access token issued by this provider to any client (the admin
 * console's JWT included), under the scheme its binding requires (a DPoP-bound token with a valid
 * proof for this request). It only says who calls and through which client (and, as
 * koaAccountAuth does, the God user acting on `ctx.state.actorId`, while their impersonation is
 * current); which client may ask about which application is the service's rule.
 */
export function koaGateAuth(context: AppContext, host: ProviderHost) {
  return async function gateAuth(ctx: Context, next: Next) {
    const presented = presentedToken(ctx.get('authorization'));
    if (!presented) refuse(ctx, undefined);
    const { token } = presented;
    let caller = JWS_COMPACT.test(token) ? await consoleCaller(context, token) : await opaqueCaller(host, token);
    if (caller?.acting && !(await host.impersonations.isCurrent(caller.acting, caller.accountId))) caller = undefined;
    if (!caller) refuse(ctx, presented);
    await proveHolder(context, ctx, presented, caller.jkt);
    ctx.state.accountId = caller.accountId;
    ctx.state.clientId = caller.clientId;
    ctx.state.actorId = caller.acting?.actorId;
    await next();
  };
}
