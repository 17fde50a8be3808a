import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, IDENTITY_ROLES, type Area, type Tenant, type User } from '@gatehouse/core';
import { buildApplication, buildArea, buildTenant, buildUser, createTestContext, ensureGlobalTenant, grant } from '@gatehouse/core/testing';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { createAdminContext, type AdminContext } from '../admin-context.js';
import { createApp } from '../app.js';
import { insertSigningKey, mintAccessToken, type TestSigningKey } from './tokens.js';

export type Application = Awaited<ReturnType<typeof buildApplication>>;

/** Who calls: the roles in the token (an AreaAdministrator's areas come from the database). */
export type Persona = 'admin' | 'god' | 'areaAdmin' | 'tenantAdmin' | 'manager';

/** The roles each persona's access token carries. */
export const TOKEN_ROLES: Record<Persona, string[]> = {
  admin: ['Administrator'],
  god: ['God'],
  areaAdmin: ['AreaAdministrator'],
  tenantAdmin: ['TenantAdministrator'],
  manager: ['Manager'],
};

/**
 * What the admin API tests share: area A with tenant A (where the area administrator holds
 * AreaAdministrator), area B with tenant B, the Global tenant (where the administrator and God hold
 * their roles), the Identity application with its roles, one caller per persona (users of area A)
 * and the whole admin API (app.ts's createApp) behind a signing key of its own.
 */
export interface AdminWorld {
  context: AdminContext;
  server: ReturnType<ReturnType<typeof createApp>['callback']>;
  key: TestSigningKey;
  areaA: Area;
  areaB: Area;
  tenantA: Tenant;
  tenantB: Tenant;
  identity: Application;
  callers: Record<Persona, User>;
}

export interface AdminWorldOptions {
  /** Fields of area A and area B (a name to read in a spreadsheet, say). */
  areaA?: Partial<Area>;
  areaB?: Partial<Area>;
  /** Configuration values by dotted key (a lower rate limit, say). */
  overrides?: Record<string, unknown>;
}

/** Builds the world on a database of its own (the Identity application has a fixed id). */
export async function buildAdminWorld(options: AdminWorldOptions = {}): Promise<AdminWorld> {
  const context = createAdminContext(await createTestContext({ overrides: options.overrides }));
  const db = context.dataSource;
  await ensureGlobalTenant(db);
  const areaA = await buildArea(db, options.areaA);
  const areaB = await buildArea(db, options.areaB);
  const tenantA = await buildTenant(db, { areaId: areaA.id });
  const tenantB = await buildTenant(db, { areaId: areaB.id });
  const identity = await buildApplication(db, { id: IDENTITY_APPLICATION_ID, name: 'identity', displayName: 'Identity', roles: [...IDENTITY_ROLES] });
  const callers = {} as Record<Persona, User>;
  for (const persona of Object.keys(TOKEN_ROLES) as Persona[]) callers[persona] = await buildUser(db, { areaId: areaA.id });
  // The area administrator's scope comes from the database: AreaAdministrator held in area A's tenant.
  await grant(db, { tenant: tenantA, user: callers.areaAdmin, roles: [identity.roleByName.AreaAdministrator!] });
  await grant(db, { tenant: GLOBAL_TENANT_ID, user: callers.admin, roles: [identity.roleByName.Administrator!] });
  await grant(db, { tenant: GLOBAL_TENANT_ID, user: callers.god, roles: [identity.roleByName.God!] });
  const key = await insertSigningKey(context);
  return { context, server: createApp(context).callback(), key, areaA, areaB, tenantA, tenantB, identity, callers };
}

/** A bearer header for one of the world's callers (Administrator unless told), or another user calling with a persona's roles. */
export async function bearer(w: AdminWorld, persona: Persona = 'admin', user: User = w.callers[persona]): Promise<string> {
  return `Bearer ${await mintAccessToken(w.context, w.key, { sub: user.id, roles: TOKEN_ROLES[persona] })}`;
}

export interface CallOptions {
  as?: Persona;
  /** Another user calling with the persona's roles. */
  user?: User;
  body?: unknown;
  lang?: string;
}

/**
 * A request as one of the world's callers (Administrator unless told), in English unless told.
 * `path` is under /api/v1/admin unless it starts with /api/.
 */
export async function call(w: AdminWorld, method: 'get' | 'post' | 'put' | 'delete', path: string, options: CallOptions = {}) {
  const url = path.startsWith('/api/') ? path : `/api/v1/admin${path}`;
  const req = request(w.server)[method](url)
    .set('Authorization', await bearer(w, options.as, options.user))
    .set('Accept-Language', options.lang ?? 'en');
  return options.body === undefined ? req : req.send(options.body as object);
}

/** A new user of an area. */
export function userIn(w: AdminWorld, area: Area, overrides: Partial<User> = {}): Promise<User> {
  return buildUser(w.context.dataSource, { areaId: area.id, ...overrides });
}

/** A `system_logs` row as the tests read it back. */
export interface SystemLogRow {
  user_id: string | null;
  user_name: string | null;
  tenant_id: string | null;
  tenant_name: string | null;
  operation: string;
  metadata: Record<string, unknown>;
}

/** The system log rows whose metadata has `key` = `value`, oldest first. */
export function logsWhere(w: AdminWorld, key: string, value: string): Promise<SystemLogRow[]> {
  return w.context.dataSource.query(
    `SELECT user_id, user_name, tenant_id, tenant_name, operation, metadata FROM system_logs WHERE metadata->>$1::text = $2 ORDER BY id`,
    [key, value],
  );
}

/** An .xlsx with one sheet of the given rows (null leaves a cell empty, [] an empty row). */
export async function xlsx(rows: unknown[][], sheetName = 'Sheet1'): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Collects a binary answer for `.buffer(true).parse(binary)` (supertest only buffers text and JSON by itself). */
export function binary(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
}
