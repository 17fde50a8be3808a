/** One entry of an error body's `errors`: a field the server refused and why. */
export interface FieldErrorBody {
  field?: string;
  code?: string;
  /** Already in the request's language; empty when the server sent no text. */
  message: string;
}

/**
 * The services' error body, `{ code, message, errors, requestId }`, as far as an answer carried it.
 * Anything missing or of the wrong type is left out, so a proxy's HTML page reads as an empty body.
 */
export interface ErrorBody {
  code?: string;
  message?: string;
  errors: FieldErrorBody[];
  requestId?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function fieldErrorOf(value: unknown): FieldErrorBody | undefined {
  if (typeof value === 'string') return { message: value };
  if (!isRecord(value)) return undefined;
  const field = textOf(value.field);
  const code = textOf(value.code);
  const message = textOf(value.message);
  if (field === undefined && code === undefined && message === undefined) return undefined;
  return { ...(field !== undefined && { field }), ...(code !== undefined && { code }), message: message ?? '' };
}

/**
 * The field errors of an error body: the server's `{ field, code, message }` entries, and plain
 * strings (older sign-in answers) as entries with a message only. Anything else is dropped.
 */
export function fieldErrorBodies(value: unknown): FieldErrorBody[] {
  if (!Array.isArray(value)) return [];
  return value.map(fieldErrorOf).filter((entry): entry is FieldErrorBody => entry !== undefined);
}

/** Reads an already parsed JSON value as an error body. */
export function errorBodyOf(payload: unknown): ErrorBody {
  if (!isRecord(payload)) return { errors: [] };
  const code = typeof payload.code === 'number' ? String(payload.code) : textOf(payload.code);
  const message = textOf(payload.message);
  const requestId = textOf(payload.requestId);
  return {
    ...(code !== undefined && { code }),
    ...(message !== undefined && { message }),
    errors: fieldErrorBodies(payload.errors),
    ...(requestId !== undefined && { requestId }),
  };
}

/** Reads a response's text as an error body; text that is not JSON gives an empty body. */
export function parseErrorBody(text: string): ErrorBody {
  if (!text) return { errors: [] };
  try {
    return errorBodyOf(JSON.parse(text));
  } catch {
    return { errors: [] };
  }
}

/** Reads the body of a failed response as an error body, whatever it holds. */
export async function readErrorBody(response: Response): Promise<ErrorBody> {
  try {
    return parseErrorBody(await response.text());
  } catch {
    return { errors: [] };
  }
}
