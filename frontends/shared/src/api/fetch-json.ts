import { getI18n } from 'react-i18next';
import { productPath } from '../base-path';
import { errorBodyOf, fieldErrorBodies, type ErrorBody, type FieldErrorBody } from './error-body';

export const UNKNOWN_ERROR_MESSAGE = 'Unknown error';
export const NOT_FOUND_MESSAGE = 'Not found';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string | undefined;
  /** The field errors of the error body (none when it sent no readable ones). */
  readonly errors: FieldErrorBody[];

  constructor(status: number, message: string, code?: string, errors?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = fieldErrorBodies(errors);
  }
}

export interface FetchJsonOptions extends Omit<RequestInit, 'credentials'> {
  /** Serialised as the request body with a JSON content type. */
  json?: unknown;
  /** Overrides the language taken from the current i18n instance. */
  language?: string;
}

function currentLanguage(): string | undefined {
  const i18n = getI18n();
  return i18n?.resolvedLanguage ?? i18n?.language;
}

/**
 * The error for a failed answer: the server's message, else 'Not found' for a 404, else
 * 'Unknown error'.
 */
export function apiErrorFromBody(status: number, body: ErrorBody): ApiError {
  const fallback = status === 404 ? NOT_FOUND_MESSAGE : UNKNOWN_ERROR_MESSAGE;
  const message = body.message?.trim() ? body.message : fallback;
  return new ApiError(status, message, body.code, body.errors);
}

export async function fetchJson<T>(input: string | URL, options: FetchJsonOptions = {}): Promise<T> {
  const { json, language = currentLanguage(), headers: headersInit, body: bodyInit, ...init } = options;
  const headers = new Headers(headersInit);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (language && !headers.has('Accept-Language')) headers.set('Accept-Language', language);

  let body = bodyInit;
  if (json !== undefined) {
    body = JSON.stringify(json);
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  }

  // Session cookies must reach our own services and never a third party.
  const response = await fetch(typeof input === 'string' ? productPath(input) : input, { ...init, headers, body, credentials: 'same-origin' });

  const text = await response.text();
  let payload: unknown;
  let parsed = true;
  if (text) {
    try {
      payload = JSON.parse(text);
    } catch {
      parsed = false;
    }
  }

  if (!response.ok) throw apiErrorFromBody(response.status, errorBodyOf(payload));
  // A proxy answering with an HTML page must not be mistaken for data.
  if (!parsed) throw new ApiError(response.status, 'Invalid JSON response');
  return payload as T;
}
