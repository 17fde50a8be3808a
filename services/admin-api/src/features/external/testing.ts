import { randomBytes } from 'node:crypto';
import type { Tenant, User } from '@gatehouse/core';
import { buildApplication, buildTenant, grant } from '@gatehouse/core/testing';
import request from 'supertest';
import { mintPersonalAccessToken } from '../../auth/personal-access-token.js';
import { buildAdminWorld, userIn, type AdminWorld, type AdminWorldOptions, type Application } from '../../testing/admin-world.js';
import { mintAccessToken, type AccessTokenOptions } from '../../testing/tokens.js';

/**
 * The admin world and what the external API tests add to it: the business applications "crm"
 * (Sales, Reader, Partner; Partner flagged for operation requests) and "erp" (Clerk), tenant A
 * ("acme") with a child, and Ann, who holds crm's Sales and erp's Clerk in tenant A. So crm sees
 * tenant A and its child, erp too, and neither sees tenant B.
 */
export interface ExternalWorld extends AdminWorld {
  crm: Application;
  erp: Application;
  childA: Tenant;
  ann: User;
}

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

export async function buildExternalWorld(options: AdminWorldOptions = {}): Promise<ExternalWorld> {
  const world = await buildAdminWorld(options);
  const db = world.context.dataSource;
  const childA = await buildTenant(db, { areaId: world.areaA.id, parentId: world.tenantA.id, title: 'Acme Iberia' });
  const crm = await buildApplication(db, { id: unique('crm'), name: unique('crm'), displayName: 'CRM', grantTypes: ['client_credentials'], roles: ['Sales', 'Reader', 'Partner'] });
  const erp = await buildApplication(db, { id: unique('erp'), name: unique('erp'), displayName: 'ERP', grantTypes: ['client_credentials'], roles: ['Clerk'] });
  await db.query('UPDATE roles SET operation_request_visibility = true WHERE id = $1', [crm.roleByName.Partner!.id]);
  crm.roleByName.Partner!.operationRequestVisibility = true;
  const ann = await userIn(world, world.areaA, { firstName: 'Ann', lastName: 'Example' });
  await grant(db, { tenant: world.tenantA, user: ann, roles: [crm.roleByName.Sales!, erp.roleByName.Clerk!] });
  return { ...world, childA, crm, erp, ann };
}

/** A client-credentials access token of the application for the external API, as the provider issues it. */
export function clientToken(w: AdminWorld, app: Application, options: AccessTokenOptions = {}): Promise<string> {
  return mintAccessToken(w.context, w.key, {
    audience: w.context.config.oidc.externalApiAudience,
    sub: app.name,
    clientId: app.name,
    scope: 'external',
    claims: { roles: undefined },
    ...options,
  });
}

/** A personal access token of the user for the application (expiring when told); answers its value and id. */
export async function personalAccessToken(w: AdminWorld, user: User, app: Application, expiresAt: Date | null = null): Promise<{ token: string; id: string }> {
  const minted = mintPersonalAccessToken();
  const [row] = await w.context.dataSource.query(
    `INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix, token_last_chars, expires_at)
     VALUES ('integration', $1, $2, $3, $4, $5, $6) RETURNING id`,
    [user.id, app.id, minted.hash, minted.prefix, minted.lastChars, expiresAt],
  );
  return { token: minted.token, id: row.id };
}

export interface ExternalCallOptions {
  /** The bearer token (the application's client-credentials token unless told). */
  token?: string;
  body?: unknown;
  lang?: string;
  headers?: Record<string, string>;
}

/** A call of the external API as `app` (path under /api/v1/external), in English unless told. */
export async function external(w: AdminWorld, app: Application, method: 'get' | 'post' | 'delete', path: string, options: ExternalCallOptions = {}) {
  const req = request(w.server)[method](`/api/v1/external${path}`)
    .set('Authorization', `Bearer ${options.token ?? (await clientToken(w, app))}`)
    .set('Accept-Language', options.lang ?? 'en');
  for (const [name, value] of Object.entries(options.headers ?? {})) req.set(name, value);
  return options.body === undefined ? req : req.send(options.body as object);
}

/** An external_api_access_logs row as the tests read it back. */
export interface AccessLogRow {
  ip: string | null;
  user_id: string | null;
  user_name: string | null;
  api_entry: string;
  metadata: Record<string, unknown>;
}

/** The access log rows of an application, oldest first. */
export function accessLogsOf(w: AdminWorld, app: Application): Promise<AccessLogRow[]> {
  return w.context.dataSource.query(
    `SELECT ip, user_id, user_name, api_entry, metadata FROM external_api_access_logs WHERE metadata->>'applicationId' = $1 ORDER BY id`,
    [app.id],
  );
}
