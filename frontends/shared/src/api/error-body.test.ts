import { describe, expect, it } from 'vitest';
import { errorBodyOf, parseErrorBody, readErrorBody } from './error-body';

describe('errorBodyOf', () => {
  it('reads the services error body', () => {
    const body = {
      code: 'errors.validation',
      message: 'Invalid request',
      errors: [{ field: 'email', code: 'errors.email', message: 'Invalid email' }],
      requestId: 'r-1',
    };

    expect(errorBodyOf(body)).toEqual(body);
  });

  it('keeps string errors as entries with a message only and drops other values', () => {
    expect(errorBodyOf({ errors: ['Wrong password', 42, null, { field: 'code' }] })).toEqual({
      errors: [{ message: 'Wrong password' }, { field: 'code', message: '' }],
    });
  });

  it('leaves out values of the wrong type and reads a numeric code as text', () => {
    expect(errorBodyOf({ code: 500, message: { text: 'x' }, errors: 'none', requestId: 7 })).toEqual({
      code: '500',
      errors: [],
    });
  });

  it('reads anything that is not an object as an empty body', () => {
    for (const value of [undefined, null, 'text', 3, ['a']]) expect(errorBodyOf(value)).toEqual({ errors: [] });
  });
});

describe('parseErrorBody', () => {
  it('parses JSON text', () => {
    expect(parseErrorBody('{"code":"errors.not_found","message":"Not found"}')).toEqual({
      code: 'errors.not_found',
      message: 'Not found',
      errors: [],
    });
  });

  it('reads empty text and a proxy page as an empty body', () => {
    expect(parseErrorBody('')).toEqual({ errors: [] });
    expect(parseErrorBody('<h1>Bad gateway</h1>')).toEqual({ errors: [] });
  });
});

describe('readErrorBody', () => {
  it('reads the body of a failed response', async () => {
    const response = new Response(JSON.stringify({ code: 'errors.forbidden', message: 'No' }), { status: 403 });

    await expect(readErrorBody(response)).resolves.toEqual({ code: 'errors.forbidden', message: 'No', errors: [] });
  });

  it('reads a body that was already consumed as an empty body', async () => {
    const response = new Response('{"message":"x"}', { status: 500 });
    await response.text();

    await expect(readErrorBody(response)).resolves.toEqual({ errors: [] });
  });
});
