import { resolveEffectiveRoles, resolveRoleNames, type AppContext } from '@gatehouse/core';
import type { Account, KoaContextWithOIDC } from 'oidc-provider';
import { actClaim, isLive, type SessionImpersonations } from '../features/identify-as/session-impersonations.js';
import { companySummary, currentCompanyOf } from '../features/profile/repository.js';
import type { ClientRegistry } from './clients.js';

export interface AccountRow {
  id: string;
  user_name: string;
  email: string;
  email_verified: boolean;
  first_name: string | null;
  last_name: string | null;
  language: string;
  /** The person chose `language` in their own profile (not an administrator's pick or the default). */
  language_chosen: boolean;
  internal_category: string | null;
  area_name: string | null;
  groups: string[];
}

const ACCOUNT_SQL = `
  SELECT u.id, u.user_name, u.email, u.email_verified, u.first_name, u.last_name, u.language,
         u.language_chosen_on IS NOT NULL AS language_chosen, u.internal_category, a.name AS area_name,
         COALESCE((SELECT array_agg(g.name ORDER BY g.name) FROM group_members gm JOIN groups g ON g.id = gm.group_id
                    WHERE gm.user_id = u.id), '{}') AS groups
    FROM users u LEFT JOIN areas a ON a.id = u.area_id
   WHERE u.id = $1 AND NOT u.draft AND NOT u.locked`;

/** Claims each scope releases. */
export const CLAIMS = {
  /**
   * `act` (RFC 8693): the God user acting, in a session signed in as another user (Identify As).
   * `amr` (RFC 8176), in the ID token: how the session signed in (`pwd`, `otp`, `pop` for a
   * passkey, `mfa` when two factors were given).
   */
  openid: ['sub', 'act', 'amr'],
  /**
   * `locale_chosen`: true when the person chose `locale` in their own profile; the product's SPAs
   * then switch to it at sign-in on any device (absent for a language an administrator gave).
   */
  profile: ['name', 'given_name', 'family_name', 'locale', 'locale_chosen', 'area', 'internal_category'],
  email: ['email', 'email_verified'],
  roles: ['roles', 'groups'],
  /** The company (tenant) the user works for now, chosen in the portal: `{ id, title, roles }`, roles being those the user holds there in the requesting application. */
  company: ['current_company'],
};

/** The `current_company` claim, `{ id, title, roles }`: computed only when the application asked for the `company` scope. */
async function companyClaim(
  context: AppContext,
  userId: string,
  scope: string | undefined,
  applicationId: string | undefined,
): Promise<{ id: string; title: string; roles: string[] } | undefined> {
  if (!String(scope ?? '').split(' ').includes('company')) return undefined;
  const company = currentCompanyOf(await companySummary(context.dataSource, userId));
  if (!company) return undefined;
  // What the user may do in that company in this application: own, inherited from a parent, or global.
  const held = applicationId ? await resolveEffectiveRoles(context.dataSource, userId, { tenantId: company.id, applicationId }) : [];
  return { id: company.id, title: company.title, roles: [...new Set(held.map((role) => role.roleName))].sort() };
}

/** How long account rows and role names are reused; every change drops them at once anyway. */
const CACHE_TTL_MS = 30_000;

/**
 * Users and their effective role names as the provider needs them on every token: cached briefly,
 * dropped as soon as any node says the user or the memberships changed.
 */
export class AccountDirectory {
  private readonly accounts = new Map<string, { row: AccountRow | undefined; at: number }>();
  private readonly roles = new Map<string, { names: string[]; at: number }>();
  private readonly unsubscribe: Array<() => void>;

  constructor(private readonly context: AppContext) {
    this.unsubscribe = [
      context.broadcast.on('user.changed', ({ userId }) => (userId ? this.accounts.delete(userId) : this.accounts.clear())),
      context.broadcast.on('roles.changed', ({ userId }) => {
        if (!userId) return this.roles.clear();
        for (const key of this.roles.keys()) if (key.startsWith(`${userId}:`)) this.roles.delete(key);
      }),
    ];
  }

  /** An active user (not draft, not permanently locked), or undefined. */
  async find(userId: string): Promise<AccountRow | undefined> {
    const hit = this.accounts.get(userId);
    if (hit && hit.at + CACHE_TTL_MS > Date.now()) return hit.row;
    const [row]: AccountRow[] = await this.context.dataSource.query(ACCOUNT_SQL, [userId]).catch(() => []);
    this.accounts.set(userId, { row, at: Date.now() });
    return row;
  }

  /** Distinct names of the user's effective roles in one application, across tenants. */
  async roleNames(userId: string, applicationId: string): Promise<string[]> {
    const key = `${userId}:${applicationId}`;
    const hit = this.roles.get(key);
    if (hit && hit.at + CACHE_TTL_MS > Date.now()) return hit.names;
    const names = await resolveRoleNames(this.context.dataSource, userId, applicationId);
    this.roles.set(key, { names, at: Date.now() });
    return names;
  }

  /** The user's current company, when `scope` asks for it (never cached: a choice applies at once). */
  currentCompany(userId: string, scope: string | undefined, applicationId: string | undefined): Promise<{ id: string; title: string; roles: string[] } | undefined> {
    return companyClaim(this.context, userId, scope, applicationId);
  }

  close(): void {
    for (const off of this.unsubscribe) off();
  }
}

/**
 * The provider's view of a user. Draft and permanently locked users are not found, so their
 * refresh tokens stop working. `roles` are the user's effective roles in the requesting
 * application (every tenant).
 *
 * In a session a God user signed in to as the user (Identify As), the claims carry `act` and the
 * request notes the impersonation (its end caps every lifetime). Once it has ended, the codes and
 * tokens of that session find no account: nothing more is issued or refreshed from them. The
 * session itself is sent to sign in again by the login prompt (provider.ts).
 */
export function accountFinder(directory: AccountDirectory, registry: ClientRegistry, impersonations: SessionImpersonations) {
  return async function findAccount(ctx: KoaContextWithOIDC, sub: string, token?: object): Promise<Account | undefined> {
    const row = await directory.find(sub);
    if (!row) return undefined;
    const impersonation = await impersonations.ofSession(token ? (token as { sessionUid?: string }).sessionUid : ctx.oidc?.session?.uid);
    const live = impersonation !== undefined && impersonation.targetId === row.id && isLive(impersonation);
    if (impersonation && !live && token) return undefined;
    if (live) impersonations.note(ctx, impersonation);
    const act = live ? actClaim(impersonation) : undefined;
    return {
      accountId: row.id,
      async claims(_use, scope) {
        const clientId = ctx.oidc?.client?.clientId;
        const app = clientId ? await registry.find(clientId) : undefined;
        const roles = app ? await directory.roleNames(row.id, app.id) : [];
        const name = [row.first_name, row.last_name].filter(Boolean).join(' ') || row.user_name;
        return {
          sub: row.id,
          name,
          given_name: row.first_name ?? undefined,
          family_name: row.last_name ?? undefined,
          locale: row.language,
          locale_chosen: row.language_chosen || undefined,
          email: row.email,
          email_verified: row.email_verified,
          area: row.area_name ?? undefined,
          internal_category: row.internal_category ?? undefined,
          roles,
          groups: row.groups,
          current_company: await directory.currentCompany(row.id, scope, app?.id),
          act,
        };
      },
    };
  };
}
