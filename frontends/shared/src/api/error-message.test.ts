import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/create-i18n';
import { apiErrorMessage } from './error-message';

const t = createI18n({ language: 'en' }).t;

describe('apiErrorMessage', () => {
  it('names 404 and 401 whatever the body says', () => {
    expect(apiErrorMessage(404, { message: 'No such user' }, t)).toBe('Not found');
    expect(apiErrorMessage(401, { message: 'Token expired' }, t)).toBe('Access is denied');
  });

  it('prefers the error field, then the message, then the joined list', () => {
    expect(apiErrorMessage(400, { error: 'Bad tenant', message: 'Invalid input' }, t)).toBe('Bad tenant');
    expect(apiErrorMessage(400, { message: { message: 'Nested reason' } }, t)).toBe('Nested reason');
    expect(
      apiErrorMessage(400, { errors: [{ field: 'a', message: 'First is wrong' }, 'Second is wrong'] }, t),
    ).toBe('First is wrong. Second is wrong');
  });

  it('falls back to Unknown error in the interface language', () => {
    expect(apiErrorMessage(500, '<html>', t)).toBe('Unknown error');
    expect(apiErrorMessage('FETCH_ERROR', undefined, createI18n({ language: 'de' }).t)).toBe('Unbekannter Fehler');
  });
});
