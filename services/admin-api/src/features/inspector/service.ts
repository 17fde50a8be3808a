import type { InspectedTokenKind, SignatureState, TokenState, tokenInspectionSchema } from '@gatehouse/contracts';
import { findPublishedKeys, resolveEffectiveRoles, type AppContext, type EffectiveRole } from '@gatehouse/core';
import { findRoleOrigins } from '@gatehouse/core/access';
import type { RoleOrigin } from '@gatehouse/contracts';
import { compactVerify, createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, type JWK, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import type { z } from 'zod';
import { PAT_PREFIX } from '../../auth/personal-access-token.js';
import { findApplicationDisplayNames, findStoredAccessToken, findSubject, findTenantTitles } from './repository.js';

type Inspection = z.input<typeof tokenInspectionSchema>;
type RoleGroup = Inspection['effectiveRoles'][number];

/** What the personal access tokens' store says of a token: whose it is and until when (null: unknown token). */
export type PatLookup = (token: string) => Promise<{ userId: string; expiresAt: Date | null } | null>;

const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** The shape of the provider's opaque tokens. */
const OPAQUE = /^[A-Za-z0-9_-]{32,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The algorithms the provider signs with: anything else (`none`, a MAC) is no signature of its. */
const ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];

const NOTHING: Omit<Inspection, 'kind'> = {
  header: null,
  claims: null,
  signature: 'notApplicable',
  issuedByThisProvider: null,
  state: 'unknown',
  issuedAt: null,
  expiresAt: null,
  subject: null,
  effectiveRoles: [],
};

/** Tenants whose role origins are read at once. */
const ORIGIN_QUERIES_AT_ONCE = 8;

const dateOf = (seconds: unknown) => (typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000) : null);

/** Active, expired or not yet valid, by the token's own dates; unknown without an expiry. */
function stateOf(claims: JWTPayload, now = Date.now()): TokenState {
  const expiresAt = dateOf(claims.exp);
  const notBefore = dateOf(claims.nbf);
  if (expiresAt && expiresAt.getTime() <= now) return 'expired';
  if (notBefore && notBefore.getTime() > now) return 'notYetValid';
  return expiresAt ? 'active' : 'unknown';
}

/** An RFC 9068 access token says so in its type; the provider's ID tokens carry none (or plain JWT). */
function kindOf(header: ProtectedHeaderParameters): InspectedTokenKind {
  const type = header.typ?.toLowerCase();
  if (type === 'at+jwt' || type === 'application/at+jwt') return 'accessToken';
  return type === undefined || type === 'jwt' ? 'idToken' : 'unknown';
}

function signatureStateOf(error: unknown): SignatureState {
  return error instanceof errors.JWKSNoMatchingKey ? 'unknownKey' : 'invalid';
}

/**
 * The token inspector: what a pasted token is, whether the provider vouches for it, and what its
 * subject may do right now. Only a token the provider vouches for (its signature, or its store)
 * names a subject: a forged token's claims are shown as what they are, a claim. The token itself
 * is never logged nor kept.
 */
export class InspectorService {
  constructor(
    private readonly context: AppContext,
    private readonly patLookup?: PatLookup,
  ) {}

  async inspect(token: string): Promise<Inspection> {
    if (token.startsWith(PAT_PREFIX)) return this.personalAccessToken(token);
    if (JWS_COMPACT.test(token)) return this.jwt(token);
    if (OPAQUE.test(token)) return this.opaque(token);
    return { kind: 'unknown', ...NOTHING };
  }

  private async jwt(token: string): Promise<Inspection> {
    let header: ProtectedHeaderParameters;
    let claims: JWTPayload;
    try {
      header = decodeProtectedHeader(token);
      claims = decodeJwt(token);
    } catch {
      return { kind: 'unknown', ...NOTHING };
    }
    const signature = await this.verifySignature(token);
    const issuedByThisProvider = claims.iss === this.context.config.oidc.issuer;
    const vouched = signature === 'valid' && issuedByThisProvider;
    const subjectId = vouched && typeof claims.sub === 'string' ? claims.sub : undefined;
    return {
      kind: kindOf(header),
      header: { ...header },
      claims: { ...claims },
      signature,
      issuedByThisProvider,
      state: stateOf(claims),
      issuedAt: dateOf(claims.iat),
      expiresAt: dateOf(claims.exp),
      ...(await this.subjectOf(subjectId)),
    };
  }

  /** Checks the signature alone (dates and audience are reported, not enforced) against the keys the provider publishes. */
  private async verifySignature(token: string): Promise<SignatureState> {
    const keys = await findPublishedKeys(this.context.dataSource);
    const jwks = createLocalJWKSet({ keys: keys.map((row) => ({ ...row.public_jwk, kid: row.kid }) as JWK) });
    try {
      await compactVerify(token, jwks, { algorithms: ALGORITHMS });
      return 'valid';
    } catch (error) {
      return signatureStateOf(error);
    }
  }

  /** An opaque token: active or expired, and whose, as the provider's store says; nothing else of it. */
  private async opaque(token: string): Promise<Inspection> {
    const stored = await findStoredAccessToken(this.context.dataSource, token);
    if (!stored) return { kind: 'unknown', ...NOTHING };
    return { kind: 'opaqueAccessToken', ...NOTHING, state: stored.expired ? 'expired' : 'active', ...(await this.subjectOf(stored.account_id ?? undefined)) };
  }

  /** A personal access token, when the tokens' store is there to ask; otherwise not recognised. */
  private async personalAccessToken(token: string): Promise<Inspection> {
    const found = this.patLookup ? await this.patLookup(token) : null;
    if (!found) return { kind: 'unknown', ...NOTHING };
    const expired = found.expiresAt !== null && found.expiresAt.getTime() <= Date.now();
    return {
      kind: 'personalAccessToken',
      ...NOTHING,
      state: expired ? 'expired' : 'active',
      expiresAt: found.expiresAt,
      ...(await this.subjectOf(found.userId)),
    };
  }

  /** The subject's account and effective roles now, grouped by application and tenant. */
  private async subjectOf(userId: string | undefined): Promise<Pick<Inspection, 'subject' | 'effectiveRoles'>> {
    if (!userId) return { subject: null, effectiveRoles: [] };
    const user = UUID.test(userId) ? await findSubject(this.context.dataSource, userId) : undefined;
    if (!user) return { subject: { id: userId, found: false, userName: null, displayName: null, locked: false, draft: false }, effectiveRoles: [] };
    const displayName = [user.first_name, user.last_name].filter(Boolean).join(' ') || null;
    const roles = await resolveEffectiveRoles(this.context.dataSource, user.id);
    return {
      subject: { id: user.id, found: true, userName: user.user_name, displayName, locked: user.locked, draft: user.draft },
      effectiveRoles: await this.grouped(user.id, roles),
    };
  }

  /** How the user holds each of their roles in each of these tenants, by "tenant role". */
  private async originsIn(userId: string, tenantIds: readonly string[]): Promise<Map<string, RoleOrigin[]>> {
    const origins = new Map<string, RoleOrigin[]>();
    // A few tenants at a time: a user may hold roles in many.
    for (let i = 0; i < tenantIds.length; i += ORIGIN_QUERIES_AT_ONCE) {
      const batch = tenantIds.slice(i, i + ORIGIN_QUERIES_AT_ONCE);
      const found = await Promise.all(batch.map((tenantId) => findRoleOrigins(this.context.dataSource, tenantId, 'User', [userId])));
      batch.forEach((tenantId, j) => {
        for (const held of found[j]!) origins.set(`${tenantId} ${held.roleId}`, held.origins);
      });
    }
    return origins;
  }

  private async grouped(userId: string, roles: EffectiveRole[]): Promise<RoleGroup[]> {
    const tenantIds = [...new Set(roles.map((role) => role.tenantId))];
    const [titles, displayNames, origins] = await Promise.all([
      findTenantTitles(this.context.dataSource, tenantIds),
      findApplicationDisplayNames(this.context.dataSource, [...new Set(roles.map((role) => role.applicationId))]),
      this.originsIn(userId, tenantIds),
    ]);
    const groups = new Map<string, RoleGroup>();
    for (const role of roles) {
      const key = `${role.applicationId} ${role.tenantId}`;
      let group = groups.get(key);
      if (!group) {
        group = {
          applicationId: role.applicationId,
          applicationName: role.applicationName,
          applicationDisplayName: displayNames.get(role.applicationId) ?? role.applicationName,
          tenantId: role.tenantId,
          tenantName: titles.get(role.tenantId) ?? role.tenantId,
          roles: [],
        };
        groups.set(key, group);
      }
      group.roles.push({ roleId: role.roleId, roleName: role.roleName, hierarchyType: role.hierarchyType, origins: origins.get(`${role.tenantId} ${role.roleId}`) ?? [] });
    }
    return [...groups.values()].sort((a, b) => a.applicationName.localeCompare(b.applicationName) || a.tenantName.localeCompare(b.tenantName));
  }
}
