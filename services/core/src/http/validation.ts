import type { ErrorCode } from '@gatehouse/contracts';
import type { z } from 'zod';
import { AppError, type FieldError } from '../errors/app-error.js';

/**
 * Validates input against a schema; a failure is a 400 naming every field and reason. A field named
 * in `required` that is missing or blank is reported with that code (the spec's own text, such as
 * "Please input your username!"), whatever check zod reports first for it.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown, required?: Readonly<Record<string, ErrorCode>>): z.infer<T> {
  // No text column can store a NUL: refused here, naming the field, rather than failing in the database.
  const withNul = nulFields(input);
  if (withNul.length) throw new AppError('errors.validation', 400, {}, withNul.map((field) => ({ field, code: 'validation.invalid_character' })));
  // reportInput: zod 4 leaves the offending value out of issues otherwise, and "missing" cannot be told from "wrong type".
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const values = (input ?? {}) as Record<string, unknown>;
  const errors = result.error.issues.map((issue) => {
    const error = toFieldError(issue);
    const code = required?.[error.field];
    return code && isBlank(values[error.field]) ? { field: error.field, code } : error;
  });
  throw new AppError('errors.validation', 400, {}, errors);
}

/** The fields (dotted paths) of an input whose text or name holds a NUL character. */
export function nulFields(input: unknown, path = ''): string[] {
  if (typeof input === 'string') return input.includes('\u0000') ? [path || '(body)'] : [];
  if (!input || typeof input !== 'object') return [];
  return Object.entries(input).flatMap(([key, value]) => {
    const field = path ? `${path}.${key}` : key;
    return key.includes('\u0000') ? [field] : nulFields(value, field);
  });
}

/** Missing, null, spaces only, or an empty list. */
function isBlank(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  return Array.isArray(value) && value.length === 0;
}

function toFieldError(issue: z.core.$ZodIssue): FieldError {
  const field = issue.path.join('.') || '(body)';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? { field, code: 'validation.required' }
        : { field, code: 'validation.invalid_type', params: { expected: issue.expected } };
    case 'too_big':
      return issue.origin === 'string'
        ? { field, code: 'validation.too_long', params: { max: issue.maximum } }
        : { field, code: 'validation.too_big', params: { max: issue.maximum } };
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? { field, code: 'validation.required' }
          : { field, code: 'validation.too_short', params: { min: issue.minimum } };
      }
      return { field, code: 'validation.too_small', params: { min: issue.minimum } };
    case 'invalid_format':
      return issue.format === 'email' ? { field, code: 'validation.invalid_email' } : { field, code: 'validation.invalid' };
    case 'invalid_value':
      return { field, code: 'validation.invalid_value', params: { options: issue.values.join(', ') } };
    case 'unrecognized_keys':
      return { field: issue.keys.join(', '), code: 'validation.unknown_field' };
    case 'custom': {
      // A check of the contracts' own names its message ({ params: { code } }).
      const code = (issue.params as { code?: ErrorCode } | undefined)?.code;
      return code ? { field, code } : { field, code: 'validation.invalid' };
    }
    default:
      return { field, code: 'validation.invalid' };
  }
}
