import type { Queryable } from '../../db.js';

/** An authentication_logs row to seed; the date is required, the rest as the sign-in writes it. */
export interface AuthenticationSeed {
  date: string;
  userId?: string | null;
  userName: string;
  result: string;
  provider?: string;
  reason?: string | null;
  applicationName?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  returnUrl?: string | null;
}

/** Inserts authentication log rows; answers their ids, in order. */
export async function seedAuthenticationLogs(db: Queryable, rows: AuthenticationSeed[]): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const [inserted] = await db.query<Array<{ id: string }>>(
      `INSERT INTO authentication_logs (date, user_id, user_name, result, authentication_provider, reason, application_name, ip, user_agent, return_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [row.date, row.userId ?? null, row.userName, row.result, row.provider ?? 'Local', row.reason ?? null, row.applicationName ?? null, row.ip ?? null, row.userAgent ?? null, row.returnUrl ?? null],
    );
    ids.push(String(inserted!.id));
  }
  return ids;
}

export interface SystemSeed {
  date: string;
  userId?: string | null;
  userName?: string | null;
  tenantId?: string | null;
  tenantName?: string | null;
  operation: string;
  metadata?: Record<string, unknown>;
}

export async function seedSystemLogs(db: Queryable, rows: SystemSeed[]): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const [inserted] = await db.query<Array<{ id: string }>>(
      `INSERT INTO system_logs (date, user_id, user_name, tenant_id, tenant_name, operation, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [row.date, row.userId ?? null, row.userName ?? null, row.tenantId ?? null, row.tenantName ?? null, row.operation, row.metadata ?? {}],
    );
    ids.push(String(inserted!.id));
  }
  return ids;
}

export interface SessionSeed {
  date: string;
  userId?: string | null;
  userName: string;
  roles?: string[];
  applicationName: string;
  tenantId?: string | null;
}

export async function seedSessionLogs(db: Queryable, rows: SessionSeed[]): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const [inserted] = await db.query<Array<{ id: string }>>(
      `INSERT INTO session_logs (date, user_id, user_name, roles, application_name, tenant_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [row.date, row.userId ?? null, row.userName, row.roles ?? [], row.applicationName, row.tenantId ?? null],
    );
    ids.push(String(inserted!.id));
  }
  return ids;
}

export interface ExternalSeed {
  date: string;
  ip?: string | null;
  userId?: string | null;
  userName?: string | null;
  apiEntry: string;
  metadata?: Record<string, unknown>;
}

export async function seedExternalApiAccessLogs(db: Queryable, rows: ExternalSeed[]): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const [inserted] = await db.query<Array<{ id: string }>>(
      `INSERT INTO external_api_access_logs (date, ip, user_id, user_name, api_entry, metadata) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [row.date, row.ip ?? null, row.userId ?? null, row.userName ?? null, row.apiEntry, row.metadata ?? {}],
    );
    ids.push(String(inserted!.id));
  }
  return ids;
}
