import type { DataSource, EntityManager } from 'typeorm';
import { AUTHENTICATION_PROVIDERS, AUTHENTICATION_RESULTS } from '../domain/constants.js';

type Db = DataSource | EntityManager;

export interface AuthenticationLogEntry {
  userId?: string | null;
  userName: string;
  result: (typeof AUTHENTICATION_RESULTS)[number];
  reason?: string | null;
  provider?: (typeof AUTHENTICATION_PROVIDERS)[number];
  returnUrl?: string | null;
  applicationName?: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** One row per sign-in attempt, whatever its outcome. */
export async function writeAuthenticationLog(db: Db, entry: AuthenticationLogEntry): Promise<void> {
  await db.query(
    `INSERT INTO authentication_logs
       (user_id, user_name, result, reason, authentication_provider, return_url, application_name, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      entry.userId ?? null,
      entry.userName.slice(0, 256),
      entry.result,
      entry.reason?.slice(0, 500) ?? null,
      entry.provider ?? 'Local',
      entry.returnUrl?.slice(0, 2000) ?? null,
      entry.applicationName?.slice(0, 200) ?? null,
      entry.ip?.slice(0, 64) ?? null,
      entry.userAgent?.slice(0, 500) ?? null,
    ],
  );
}

export interface SessionLogEntry {
  userId: string | null;
  userName: string;
  roles: string[];
  applicationName: string;
  tenantId?: string | null;
}

/** One row per token issued to an application for a user. */
export async function writeSessionLog(db: Db, entry: SessionLogEntry): Promise<void> {
  await db.query(
    'INSERT INTO session_logs (user_id, user_name, roles, application_name, tenant_id) VALUES ($1, $2, $3, $4, $5)',
    [entry.userId, entry.userName.slice(0, 256), entry.roles, entry.applicationName.slice(0, 200), entry.tenantId ?? null],
  );
}
