import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { apiErrorMessage, errorBodyOf as readBody, type ErrorBody } from '@gatehouse/frontend-shared';
import type { TFunction } from 'i18next';

export type QueryError = FetchBaseQueryError | SerializedError | undefined;

export function statusOf(error: QueryError): number | string | undefined {
  return error && 'status' in error ? error.status : undefined;
}

/** The admin API's body of a failed call (already in the request's language), when it sent one. */
export function errorBodyOf(error: QueryError): ErrorBody | undefined {
  if (!error || !('status' in error)) return undefined;
  const data = 'data' in error ? error.data : undefined;
  return data && typeof data === 'object' ? readBody(data) : undefined;
}

/**
 * What to show for a failed call: the spec's 403 text, else the shared rules (server message,
 * 'Not found', 'Access is denied', 'Unknown error').
 */
export function errorMessageOf(error: QueryError, t: TFunction<['admin', 'translation']>): string {
  const status = statusOf(error);
  if (status === 403) return t('admin:common.forbidden');
  if (error && !('status' in error)) return error.message ?? t('translation:common.errors.unknown');
  return apiErrorMessage(status, errorBodyOf(error), t as unknown as TFunction<'translation'>);
}
