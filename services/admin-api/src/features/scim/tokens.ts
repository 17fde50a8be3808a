import type { issuedScimTokenSchema, scimTokenSchema, scimTokensRoutes } from '@gatehouse/contracts';
import { AppError, IDENTITY_APPLICATION_ID, writeSystemLog } from '@gatehouse/core';
import type { z } from 'zod';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { findUserName } from '../directory/lookups.js';
import { mintScimToken, SCIM_TOKEN_PREFIX } from './credentials.js';
import { deleteScimToken, findAreaName, findScimTokenOf, findTokenApplication, insertScimToken, listScimTokens, type ScimTokenListRow } from './repository.js';
import { SCIM_PREFIX } from './router.js';
import type { AdminContext } from '../../admin-context.js';

type ScimTokenItem = z.input<typeof scimTokenSchema>;
type IssuedScimToken = z.input<typeof issuedScimTokenSchema>;
type NewScimTokenBody = z.output<typeof scimTokensRoutes.create.body>;

const YEAR_MS = 365 * 24 * 3_600_000;

const present = (row: ScimTokenListRow): ScimTokenItem => ({
  id: row.id,
  name: row.name,
  areaId: row.area_id,
  areaName: row.area_name,
  hint: `${SCIM_TOKEN_PREFIX}…${row.token_last_chars}`,
  createdBy: row.created_by,
  createdByName: row.created_by_name,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
});

/**
 * SCIM tokens: an administrator issues one to an application for one area; its value is shown
 * once and kept as a hash; it works while its issuer is an administrator (see credentials.ts).
 * Every issue and revocation is in the system log, never the value.
 */
export class ScimTokensService {
  constructor(private readonly context: AdminContext) {}

  private get db() {
    return this.context.dataSource;
  }

  private async application(id: string): Promise<{ id: string; name: string }> {
    const app = await findTokenApplication(this.db, id);
    if (!app) throw new AppError('errors.not_found', 404);
    const own = [this.context.config.oidc.adminClientId, this.context.config.oidc.portalClientId];
    if (app.id === IDENTITY_APPLICATION_ID || own.includes(app.name)) throw new AppError('scimTokens.application_not_allowed', 400);
    return app;
  }

  async list(applicationId: string): Promise<{ items: ScimTokenItem[]; count: number }> {
    if (!(await findTokenApplication(this.db, applicationId))) throw new AppError('errors.not_found', 404);
    const rows = await listScimTokens(this.db, applicationId);
    return { items: rows.map(present), count: rows.length };
  }

  async create(caller: Caller, applicationId: string, body: NewScimTokenBody): Promise<IssuedScimToken> {
    const app = await this.application(applicationId);
    const areaName = await findAreaName(this.db, body.areaId);
    if (!areaName) throw new AppError('scimTokens.area_not_found', 400, {}, [{ field: 'areaId', code: 'scimTokens.area_not_found' }]);
    const now = Date.now();
    const expiresAt = body.expiresAt ?? new Date(now + YEAR_MS);
    if (expiresAt.getTime() <= now || expiresAt.getTime() > now + 2 * YEAR_MS) {
      throw new AppError('scimTokens.expiry_invalid', 400, {}, [{ field: 'expiresAt', code: 'scimTokens.expiry_invalid' }]);
    }
    const minted = mintScimToken();
    const id = await this.db.transaction(async (em) => {
      const id = await insertScimToken(em, { applicationId: app.id, areaId: body.areaId, name: body.name, hash: minted.hash, lastChars: minted.lastChars, createdBy: caller.userId, expiresAt });
      await writeSystemLog(em, {
        operation: 'CreateScimToken',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        metadata: { tokenId: id, name: body.name, applicationId: app.id, application: app.name, areaId: body.areaId, areaName, expiresAt: expiresAt.toISOString() },
      });
      return id;
    });
    const row = (await findScimTokenOf(this.db, app.id, id))!;
    return { ...present(row), token: minted.token, scimUrl: `${this.context.config.server.publicUrl.replace(/\/+$/, '')}${SCIM_PREFIX}` };
  }

  async remove(caller: Caller, applicationId: string, tokenId: string): Promise<void> {
    await this.db.transaction(async (em) => {
      const row = await findScimTokenOf(em, applicationId, tokenId);
      if (!row || !(await deleteScimToken(em, applicationId, tokenId))) throw new AppError('scimTokens.not_found', 404);
      await writeSystemLog(em, {
        operation: 'DeleteScimToken',
        userId: caller.userId,
        userName: await findUserName(em, caller.userId),
        metadata: { tokenId, name: row.name, applicationId, areaId: row.area_id, areaName: row.area_name },
      });
    });
  }
}
