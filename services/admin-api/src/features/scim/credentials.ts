import { IDENTITY_APPLICATION_ID, randomToken, resolveEffectiveRoles, sha256 } from '@gatehouse/core';
import { applicationAuthority, type Authority } from '@gatehouse/core/access';
import { ScimError } from './protocol/errors.js';
import { findScimToken, touchScimToken } from './repository.js';
import type { AdminContext } from '../../admin-context.js';

/** Every SCIM token starts so; the rest is 43 characters of base64url (256 bits). */
export const SCIM_TOKEN_PREFIX = 'gscim_';
const SCIM_TOKEN_SHAPE = /^gscim_[A-Za-z0-9_-]{32,100}$/;
/** How often the last use is written at most. */
const LAST_USE_RESOLUTION_MS = 60_000;
/** The roles whose holders may issue SCIM tokens, and whose tokens keep working while they hold one. */
const ISSUING_ROLES = ['Administrator', 'God'];

export interface MintedScimToken {
  token: string;
  hash: string;
  lastChars: string;
}

/** A new token: shown once to its issuer, kept as its SHA-256. */
export function mintScimToken(): MintedScimToken {
  const token = `${SCIM_TOKEN_PREFIX}${randomToken(32)}`;
  return { token, hash: sha256(token), lastChars: token.slice(-4) };
}

/** Who provisions: an application, through a token its issuer gave it for one area. */
export interface ScimCaller {
  tokenId: string;
  application: { id: string; name: string; displayName: string };
  area: { id: string; name: string };
  issuer: { id: string; userName: string };
  /** The rules' view: an application (no Identity role of its own), reaching the token's area only, for the issuer (who never changes their own access through it). */
  authority: Authority;
}

/** What the system log rows of a provisioning change add. */
export function scimOrigin(caller: ScimCaller): Record<string, unknown> {
  return { via: 'scim', application: caller.application.name, applicationId: caller.application.id, scimTokenId: caller.tokenId };
}

const unauthorized = (detail: string) => new ScimError(401, undefined, detail);

/**
 * The caller a bearer token names: a SCIM token that exists, has not expired, whose application is
 * enabled, running and not one of the product's own, and whose issuer is neither locked nor a draft
 * and still an Administrator or God (a token never outlives its issuer's authority). Anything else is
 * a 401 that says no more than that the token is not valid.
 */
export async function verifyScimToken(context: AdminContext, token: string): Promise<ScimCaller> {
  if (!SCIM_TOKEN_SHAPE.test(token)) throw unauthorized('the bearer token is not a SCIM token');
  const row = await findScimToken(context.dataSource, sha256(token));
  if (!row) throw unauthorized('the token is not valid');
  if (row.expires_at && new Date(row.expires_at).getTime() <= Date.now()) throw unauthorized('the token is not valid');
  const app = row.application;
  const own = [context.config.oidc.adminClientId, context.config.oidc.portalClientId];
  if (!app.enabled || app.status === 'Stopped' || app.id === IDENTITY_APPLICATION_ID || own.includes(app.name)) throw unauthorized('the token is not valid');
  if (row.issuer_locked || row.issuer_draft) throw unauthorized('the token is not valid');
  const roles = await resolveEffectiveRoles(context.dataSource, row.created_by, { applicationId: IDENTITY_APPLICATION_ID });
  if (!roles.some((role) => ISSUING_ROLES.includes(role.roleName))) throw unauthorized('the token is not valid');
  if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > LAST_USE_RESOLUTION_MS) await touchScimToken(context.dataSource, row.id);
  const authority = { ...(await applicationAuthority(context.dataSource, app.id, row.created_by)), areaIds: [row.area_id] };
  return {
    tokenId: row.id,
    application: { id: app.id, name: app.name, displayName: app.display_name },
    area: { id: row.area_id, name: row.area_name },
    issuer: { id: row.created_by, userName: row.issuer_user_name },
    authority,
  };
}
