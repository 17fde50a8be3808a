import { AppError, toListQuery, type AppContext, type FieldError } from '@gatehouse/core';
import {
  PAT_MAX_LIFETIME_YEARS,
  type createdPersonalAccessTokenSchema,
  type keysRoutes,
  type patApplicationListSchema,
  type personalAccessTokenListSchema,
  type personalAccessTokenSchema,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import { writeSystemLog } from '../../audit/system-log.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { mintPersonalAccessToken } from '../../auth/personal-access-token.js';
import { findUserName } from '../directory/lookups.js';
import { PAT_SORT, deletePat, findPat, findRoleApplications, insertPat, listPats, type PatFilter, type PatRow } from './repository.js';

type PatListQuery = z.output<typeof keysRoutes.list.query>;
type AllPatsQuery = z.output<typeof keysRoutes.all.query>;
type NewPat = z.output<typeof keysRoutes.create.body>;
// What the response schemas take: times as Dates, written out as ISO strings on the wire.
type Pat = z.input<typeof personalAccessTokenSchema>;
type PatList = z.input<typeof personalAccessTokenListSchema>;
type CreatedPat = z.input<typeof createdPersonalAccessTokenSchema>;
type PatApplications = z.input<typeof patApplicationListSchema>;

/** Slack for a console whose day or clock differs from the server's when it sends "five years from today". */
const EXPIRY_LEEWAY_MS = 24 * 60 * 60 * 1000;

const addYears = (date: Date, years: number) => {
  const later = new Date(date);
  later.setUTCFullYear(later.getUTCFullYear() + years);
  return later;
};

const invalidExpiry = (code: FieldError['code'], params: Record<string, unknown> = {}) =>
  new AppError('errors.validation', 400, {}, [{ field: 'expiresAt', code, params }]);

/**
 * Personal access tokens: each acts for its owner in one application, with the owner's roles at
 * the time of each call (auth/personal-access-token.ts). A token of the Identity application opens
 * the admin API; another application's token is for that application's API, never this one.
 */
export class KeysService {
  constructor(
    private readonly context: AppContext,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A page of the caller's own tokens. */
  list(caller: Caller, query: PatListQuery): Promise<PatList> {
    return this.page(query, { ownerId: caller.userId, searchOwner: false });
  }

  /** A page of everyone's tokens (God), of one owner when `owner` is given. */
  all(query: AllPatsQuery): Promise<PatList> {
    return this.page(query, { ownerId: query.owner ?? null, searchOwner: true });
  }

  /** The applications the caller may get a token for: those in which they hold a role. */
  async applications(caller: Caller): Promise<PatApplications> {
    const rows = await findRoleApplications(this.context.dataSource, caller.userId);
    return { items: rows.map((row) => ({ id: row.id, name: row.name, displayName: row.display_name })), count: rows.length };
  }

  /**
   * Creates a token for the caller and answers it with its value, which is never stored nor shown
   * again. The caller must hold a role in the application (a token acts with its owner's roles
   * there: without one it could do nothing), and must have signed in: a token cannot create
   * another, which would outlive it. The expiry is in the future and at most five years ahead;
   * without one, five years.
   */
  async create(caller: Caller, body: NewPat): Promise<CreatedPat> {
    if (caller.kind === 'personal_access_token') throw new AppError('pats.token_cannot_create', 403);
    // A token minted while signed in as the user would outlive that impersonation.
    if (caller.actorId) throw new AppError('identifyAs.not_while_impersonating', 403);
    const expiresAt = this.expiryOf(body.expiresAt ?? null);
    const [application] = await findRoleApplications(this.context.dataSource, caller.userId, body.applicationName);
    if (!application) {
      throw new AppError('pats.application_forbidden', 403, {}, [{ field: 'applicationName', code: 'pats.application_forbidden' }]);
    }
    const minted = mintPersonalAccessToken();
    const id = await this.context.dataSource.transaction(async (em) => {
      const id = await insertPat(em, { name: body.name, userId: caller.userId, applicationId: application.id, ...minted, expiresAt });
      await writeSystemLog(em, {
        operation: 'CreatePersonalAccessToken',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        metadata: { tokenId: id, name: body.name, applicationId: application.id, applicationName: application.name, expiresAt: expiresAt.toISOString() },
      });
      return id;
    });
    const row = await findPat(this.context.dataSource, id);
    return { ...present(row!), token: minted.token };
  }

  /**
   * Deletes one of the caller's tokens; God may delete anyone's. Another user's token is the same
   * 404 as an unknown one, so nobody learns which ids exist.
   */
  async remove(caller: Caller, id: string): Promise<void> {
    if (caller.actorId) throw new AppError('identifyAs.not_while_impersonating', 403);
    const ownerId = caller.roles.includes('God') ? null : caller.userId;
    await this.context.dataSource.transaction(async (em) => {
      const deleted = await deletePat(em, id, ownerId);
      if (!deleted) throw new AppError('errors.not_found', 404);
      await writeSystemLog(em, {
        operation: 'DeletePersonalAccessToken',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        metadata: {
          tokenId: deleted.id,
          name: deleted.name,
          applicationId: deleted.application_id,
          applicationName: deleted.application_name,
          targetUserId: deleted.user_id,
          targetUserName: deleted.user_name,
        },
      });
    });
  }

  private async page(query: PatListQuery, filter: PatFilter): Promise<PatList> {
    const { rows, count } = await listPats(this.context.dataSource, toListQuery(query, PAT_SORT), filter);
    return { items: rows.map(present), count };
  }

  private expiryOf(requested: Date | null): Date {
    const now = this.now();
    const longest = addYears(now, PAT_MAX_LIFETIME_YEARS);
    if (!requested) return longest;
    if (requested.getTime() <= now.getTime()) throw invalidExpiry('pats.expiry_in_past');
    if (requested.getTime() > longest.getTime() + EXPIRY_LEEWAY_MS) throw invalidExpiry('pats.expiry_too_far', { years: PAT_MAX_LIFETIME_YEARS });
    return requested;
  }
}

function present(row: PatRow): Pat {
  return {
    id: row.id,
    name: row.name,
    applicationId: row.application_id,
    applicationName: row.application_name,
    applicationDisplayName: row.application_display_name,
    hint: `${row.token_prefix}…${row.token_last_chars ?? ''}`,
    expiresAt: row.expires_at,
    lastDateOfUse: row.last_used_at,
    createdAt: row.created_at,
    createdById: row.user_id,
    createByName: row.user_name,
  };
}
