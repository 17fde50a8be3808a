import { ApiError } from '@gatehouse/frontend-shared';
import type { FormInstance } from 'antd/es/form';
import type { DirectoryT } from '../use-directory-translation';

/** A field error of the API's error body (`errors: [{ field, message }]`). */
export interface FieldError {
  field: string;
  message: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The HTTP status of a failed RTK Query call or of an {@link ApiError} (upload, download). */
export function errorStatus(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  if (isRecord(error) && typeof error.status === 'number') return error.status;
  return undefined;
}

function errorBody(error: unknown): Record<string, unknown> | undefined {
  if (error instanceof ApiError) return { message: error.message, errors: error.errors };
  if (isRecord(error) && isRecord(error.data)) return error.data;
  return undefined;
}

/** The field errors the server sent, if any. */
export function fieldErrorsOf(error: unknown): FieldError[] {
  const errors = errorBody(error)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (item): item is FieldError => isRecord(item) && typeof item.field === 'string' && typeof item.message === 'string',
  );
}

export interface ErrorMessageOptions {
  /**
   * A 403 whose message says more than "forbidden" (the role revocation's "Only Admin can revoke
   * this access") shows that message rather than the spec's generic one.
   */
  explains403?: boolean;
}

/**
 * What to tell the user about a failed call: the spec's own text for a 403, else the server's
 * message (already in the user's language), else its field messages, else a generic text.
 */
export function errorMessage(error: unknown, t: DirectoryT, { explains403 = false }: ErrorMessageOptions = {}): string {
  const body = errorBody(error);
  if (errorStatus(error) === 403 && !(explains403 && typeof body?.message === 'string' && body.message.trim())) {
    return t('common.forbidden');
  }
  if (typeof body?.message === 'string' && body.message.trim()) return body.message;
  const fields = fieldErrorsOf(error);
  if (fields.length) return fields.map((item) => item.message).join('. ');
  if (error instanceof Error && error.message) return error.message;
  return t('common.unknownError');
}

/**
 * Puts the server's field errors under the form's own fields. Returns whether every field error
 * found a field, in which case the form alone tells the user what to fix.
 */
export function showFieldErrors(form: FormInstance, error: unknown, fields: readonly string[]): boolean {
  const errors = fieldErrorsOf(error);
  const placed = errors.filter((item) => fields.includes(item.field));
  // A field may break several rules at once (the password policy): each of them is shown.
  const byField = new Map<string, string[]>();
  for (const item of placed) byField.set(item.field, [...(byField.get(item.field) ?? []), item.message]);
  if (byField.size) form.setFields([...byField].map(([name, messages]) => ({ name, errors: messages })));
  return errors.length > 0 && placed.length === errors.length;
}
