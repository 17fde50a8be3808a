import type { z } from 'zod';
import { AppError, type FieldError } from '../errors/app-error.js';

/** Validates input against a schema; a failure is a 400 naming every field and reason. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  // reportInput: zod 4 leaves the offending value out of issues otherwise, and "missing" cannot be told from "wrong type".
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new AppError('errors.validation', 400, {}, result.error.issues.map(toFieldError));
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
    default:
      return { field, code: 'validation.invalid' };
  }
}
