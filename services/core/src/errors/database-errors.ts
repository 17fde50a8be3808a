import type { ErrorCode } from '@gatehouse/contracts';
import { QueryFailedError } from 'typeorm';
import { AppError } from './app-error.js';

/**
 * Constraint name → error. Constraints are named `<table>__<columns>` by convention, so a
 * violation maps to a code by name, never by matching the database's message text.
 */
const CONSTRAINT_ERRORS: Record<string, { code: ErrorCode; status: number; field?: string }> = {
  areas__name: { code: 'errors.area_name_in_use', status: 409, field: 'name' },
  users__normalized_user_name: { code: 'errors.user_name_in_use', status: 409, field: 'userName' },
  groups__area_id_name: { code: 'errors.group_name_in_use', status: 409, field: 'name' },
  applications__pkey: { code: 'errors.application_id_in_use', status: 409, field: 'id' },
  applications__name: { code: 'errors.application_name_in_use', status: 409, field: 'name' },
  roles__application_id_name: { code: 'errors.role_name_in_use', status: 409, field: 'name' },
  role_scopes__role_id_scope: { code: 'errors.scope_in_use', status: 409, field: 'scope' },
  role_scopes__scope__check: { code: 'validation.invalid_scope', status: 400, field: 'scope' },
  tenant_members__tenant_id_user_id: { code: 'errors.already_member', status: 409 },
  tenant_members__tenant_id_group_id: { code: 'errors.already_member', status: 409 },
  security_configs__title: { code: 'errors.config_title_in_use', status: 409, field: 'title' },
  tenants__parent_id__check: { code: 'errors.tenant_own_parent', status: 400, field: 'parentId' },
  // One waiting operation request per identity and tenant: a second one edits the first instead.
  operation_requests__waiting_user: { code: 'operationRequests.already_waiting', status: 409 },
  operation_requests__waiting_group: { code: 'operationRequests.already_waiting', status: 409 },
};

const PG_UNIQUE_VIOLATION = '23505';
const PG_FOREIGN_KEY_VIOLATION = '23503';
const PG_CHECK_VIOLATION = '23514';
const PG_NOT_NULL_VIOLATION = '23502';
const PG_INVALID_TEXT = '22P02';
const PG_STRING_TOO_LONG = '22001';

/** Turns a database error caused by the caller's input into an AppError; anything else is left alone. */
export function mapDatabaseError(error: unknown): AppError | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const driverError = error.driverError as { code?: string; constraint?: string; column?: string };
  const known = driverError.constraint ? CONSTRAINT_ERRORS[driverError.constraint] : undefined;
  if (known) {
    return new AppError(known.code, known.status, {}, known.field ? [{ field: known.field, code: known.code }] : []);
  }
  switch (driverError.code) {
    case PG_UNIQUE_VIOLATION:
      return new AppError('errors.already_exists', 409, { constraint: driverError.constraint });
    case PG_FOREIGN_KEY_VIOLATION:
      // Postgres reports a dangling reference and a delete of a row still in use with the same code,
      // table and constraint; services that need to tell them apart check before writing.
      return new AppError('errors.reference_violation', 409, { constraint: driverError.constraint });
    case PG_CHECK_VIOLATION:
    case PG_NOT_NULL_VIOLATION:
    case PG_INVALID_TEXT:
    case PG_STRING_TOO_LONG:
      return new AppError('errors.validation', 400);
    default:
      return undefined;
  }
}

/**
 * Codes of a database that cannot be reached, went away or did not answer within its bound: the
 * socket's (refused, reset, timed out), Postgres's connection and shutdown classes (08,
 * 57P01–57P03), a statement cancelled at `statement_timeout` (57014) and a session ended at
 * `idle_in_transaction_session_timeout` (25P03).
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '57014', '25P03', '08000', '08001', '08003', '08004', '08006']);
/** The driver's own: a connection that failed or timed out, and an answer that did not come within `query_timeout`. */
const UNAVAILABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout)/;

/** Whether an error means the database is out of reach for now (the caller may try again), not a fault of the request. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const cause = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  if (!(cause instanceof Error)) return false;
  const code = (cause as { code?: unknown }).code;
  return (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) || UNAVAILABLE_MESSAGES.test(cause.message);
}
