import type { Queryable } from '../db.js';

/** One administrative change, as the System Logs page lists it. */
export interface SystemLogEntry {
  operation: string;
  userId: string | null;
  userName: string | null;
  tenantId?: string | null;
  tenantName?: string | null;
  metadata?: Record<string, unknown>;
}

/**
 * Writes a `system_logs` row. Pass the transaction's manager so the row is stored with the
 * change it describes, or not at all.
 */
export async function writeSystemLog(db: Queryable, entry: SystemLogEntry): Promise<void> {
  await db.query(
    `INSERT INTO system_logs (user_id, user_name, tenant_id, tenant_name, operation, metadata) VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      entry.userId,
      // Log rows keep names as they were; the columns bound their length.
      entry.userName?.slice(0, 256) ?? null,
      entry.tenantId ?? null,
      entry.tenantName?.slice(0, 200) ?? null,
      entry.operation,
      entry.metadata ?? {},
    ],
  );
}
