import { AppError, IDENTITY_APPLICATION_ID, resolveEffectiveRoles, sha256, type AppContext } from '@gatehouse/core';
import { InvalidTokenError, boundKeyOf, clientOf } from '../../auth/access-token.js';
import { LAST_USE_RESOLUTION_MS, PAT_PREFIX, PAT_SHAPE } from '../../auth/personal-access-token.js';
import { findApplicationByName, findPersonalAccessToken, ownsApplication, touchPersonalAccessToken, type ApplicationRow } from './repository.js';
import type { AdminContext } from '../../admin-context.js';

/** Who calls the external API: always an application, and for a personal access token also the user who owns it. */
export interface ExternalCaller {
  /** How the application authenticated. */
  kind: 'client_credentials' | 'personal_access_token';
  application: { id: string; name: string; displayName: string };
  /** The owner of the personal access token; null for client credentials. */
  userId: string | null;
  userName: string | null;
  /** The personal access token's id, or the client-credentials token's `jti`. */
  tokenId: string | null;
  /**
   * Whom rate limits and idempotency keys count by: the application itself, or one user's personal
   * access tokens for the application (however many they hold, and across renewals).
   */
  key: string;
}

/** Identity roles that administer every application. */
const ADMINISTERING_ROLES = ['Administrator', 'God'];

/**
 * A valid token's caller, the refusal it gets when its application may not use the API (403), and
 * the key the token is bound to (DPoP), for the proof the request must carry.
 */
export interface VerifiedCaller {
  caller: ExternalCaller;
  refusal?: AppError;
  jkt?: string;
}

/**
 * Reads the caller from a bearer token: the JWT an application's client credentials got for the
 * external API audience, or a personal access token issued for an application. Throws
 * InvalidTokenError for a token that is not, or no longer, valid (401); a valid token of an
 * application that may not use the API comes with its refusal (403).
 */
export function externalCallerVerifier(context: AdminContext) {
  const jwt = context.accessTokens;

  /** The product's own applications (Identity, portal, console) have the admin API, not this one; a stopped one has none. */
  const refusalOf = (app: ApplicationRow): AppError | undefined => {
    const own = [context.config.oidc.adminClientId, context.config.oidc.portalClientId];
    if (app.id === IDENTITY_APPLICATION_ID || own.includes(app.name)) return new AppError('external.application_not_allowed', 403);
    if (app.status === 'Stopped') return new AppError('external.application_stopped', 403);
    return undefined;
  };

  /**
   * A client-credentials token: issued for the external API audience, to the client for itself
   * (its `sub` is its own client id: no user's token, whatever its audience, passes), whose
   * application still exists; bound to a key when the application asked with a DPoP proof.
   */
  async function fromClientCredentials(token: string): Promise<VerifiedCaller> {
    const payload = await jwt.verifiedPayload(token, context.config.oidc.externalApiAudience);
    const clientId = clientOf(payload);
    if (typeof clientId !== 'string' || payload.sub !== clientId) throw new InvalidTokenError('claims');
    const app = await findApplicationByName(context.dataSource, clientId);
    if (!app || !app.enabled) throw new InvalidTokenError('claims');
    const caller: ExternalCaller = {
      kind: 'client_credentials',
      application: { id: app.id, name: app.name, displayName: app.display_name },
      userId: null,
      userName: null,
      tokenId: typeof payload.jti === 'string' ? payload.jti : null,
      key: `client:${app.id}`,
    };
    return { caller, refusal: refusalOf(app), ...boundKeyOf(payload) };
  }

  /**
   * A personal access token opens the external API for the application it was issued for, and only
   * while its owner administers that application (an owner of it, or an Administrator or God): a
   * token outlives neither its expiry, nor its deletion, nor its owner's lock, nor their role.
   */
  async function fromPersonalAccessToken(token: string): Promise<VerifiedCaller> {
    if (!PAT_SHAPE.test(token)) throw new InvalidTokenError('malformed');
    const pat = await findPersonalAccessToken(context.dataSource, sha256(token));
    if (!pat) throw new InvalidTokenError('claims');
    if (pat.expires_at && new Date(pat.expires_at).getTime() <= Date.now()) throw new InvalidTokenError('expired');
    if (pat.locked || pat.draft || !pat.application.enabled) throw new InvalidTokenError('claims');
    const caller: ExternalCaller = {
      kind: 'personal_access_token',
      application: { id: pat.application.id, name: pat.application.name, displayName: pat.application.display_name },
      userId: pat.user_id,
      userName: pat.user_name,
      tokenId: pat.id,
      key: `user:${pat.user_id}:${pat.application.id}`,
    };
    const refusal =
      refusalOf(pat.application) ?? ((await administers(pat.user_id, pat.application.id)) ? undefined : new AppError('external.owner_not_administrator', 403));
    if (!refusal && (!pat.last_used_at || Date.now() - new Date(pat.last_used_at).getTime() > LAST_USE_RESOLUTION_MS)) {
      await touchPersonalAccessToken(context.dataSource, pat.id);
    }
    return { caller, refusal };
  }

  async function administers(userId: string, applicationId: string): Promise<boolean> {
    if (await ownsApplication(context.dataSource, userId, applicationId)) return true;
    const roles = await resolveEffectiveRoles(context.dataSource, userId, { applicationId: IDENTITY_APPLICATION_ID });
    return roles.some((role) => ADMINISTERING_ROLES.includes(role.roleName));
  }

  return {
    async verify(token: string): Promise<VerifiedCaller> {
      if (token.startsWith(PAT_PREFIX)) return fromPersonalAccessToken(token);
      if (!jwt.recognizes(token)) throw new InvalidTokenError('malformed');
      return fromClientCredentials(token);
    },
  };
}
