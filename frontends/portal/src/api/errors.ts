import { apiErrorMessage, fieldErrorBodies } from '@gatehouse/frontend-shared';
import type { TFunction } from 'i18next';

/** A field the server refused, with its message in the user's language. */
export interface FieldError {
  field: string;
  message: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The status and the body of a failed RTK Query call, as far as there are any. */
function failureOf(error: unknown): { status: number | string | undefined; data: unknown } {
  if (!isRecord(error)) return { status: undefined, data: undefined };
  const status = typeof error.status === 'number' || typeof error.status === 'string' ? error.status : undefined;
  return { status, data: error.data };
}

/** The field errors of a failed call (`errors: [{ field, message }]`). */
export function fieldErrorsOf(error: unknown): FieldError[] {
  const { data } = failureOf(error);
  if (!isRecord(data)) return [];
  return fieldErrorBodies(data.errors).filter((entry): entry is FieldError => Boolean(entry.field && entry.message));
}

/** What to tell the user about a failed call, in the spec's order (see `apiErrorMessage`). */
export function failureMessage(error: unknown, t: TFunction<'translation'>): string {
  const { status, data } = failureOf(error);
  return apiErrorMessage(status, data, t);
}
