import type { ErrorCode } from '@gatehouse/contracts';

export type { ErrorCode };

/** A problem with one field of the input. `code` is an error code (often under `validation.`). */
export interface FieldError {
  field: string;
  code: ErrorCode;
  params?: Record<string, unknown>;
}

/**
 * The one error type of the product. `code` is stable and doubles as the i18n key of the message;
 * `status` < 500 means the message may be shown to the caller.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status = 400,
    readonly params: Record<string, unknown> = {},
    readonly errors: FieldError[] = [],
  ) {
    super(code);
    this.name = 'AppError';
  }

  get expose(): boolean {
    return this.status < 500;
  }
}

export function assertThat(
  condition: unknown,
  code: ErrorCode,
  status = 400,
  params: Record<string, unknown> = {},
): asserts condition {
  if (!condition) throw new AppError(code, status, params);
}
