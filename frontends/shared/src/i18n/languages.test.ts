import { describe, expect, it, vi } from 'vitest';
import {
  PREFERENCES_STORAGE_KEY,
  detectLanguage,
  matchLanguage,
  menuLanguages,
  readStoredLanguage,
  storeLanguagePreference,
} from './languages';

function storePreference(value: unknown) {
  localStorage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify(value));
}

describe('matchLanguage', () => {
  it.each([
    ['pt-BR', 'pt-BR'],
    ['pt-br', 'pt-BR'],
    ['pt_BR', 'pt-BR'],
    ['pt', 'pt-PT'],
    ['pt-PT', 'pt-PT'],
    ['pt-AO', 'pt-PT'],
    ['fr-CA', 'fr'],
    ['en-US', 'en'],
    ['de-AT', 'de'],
    ['es-419', 'es'],
    ['it', 'it'],
  ])('maps %s to %s', (tag, expected) => {
    expect(matchLanguage(tag)).toBe(expected);
  });

  it.each(['ja', 'zh-CN', 'nl-BE', '', 'constructor', 'toString'])('rejects %j', (tag) => {
    expect(matchLanguage(tag)).toBeUndefined();
  });
});

describe('detectLanguage', () => {
  it('prefers the stored language over the browser language', () => {
    storePreference({ currentLanguage: 'de' });
    expect(detectLanguage({ browserLanguages: ['en-US', 'en'] })).toBe('de');
  });

  it('maps a bare Portuguese browser language to pt-PT', () => {
    expect(detectLanguage({ browserLanguages: ['pt'] })).toBe('pt-PT');
  });

  it('keeps Brazilian Portuguese from the browser', () => {
    expect(detectLanguage({ browserLanguages: ['pt-BR'] })).toBe('pt-BR');
  });

  it('uses the first supported browser language', () => {
    expect(detectLanguage({ browserLanguages: ['ja', 'it-CH', 'en'] })).toBe('it');
  });

  it('defaults to French when no browser language is supported', () => {
    expect(detectLanguage({ browserLanguages: ['ja', 'zh-CN'] })).toBe('fr');
    expect(detectLanguage({ browserLanguages: [] })).toBe('fr');
  });

  it('ignores a stored preference that is unsupported or malformed', () => {
    storePreference({ currentLanguage: 'ja' });
    expect(detectLanguage({ browserLanguages: ['es-MX'] })).toBe('es');

    localStorage.setItem(PREFERENCES_STORAGE_KEY, '{not json');
    expect(detectLanguage({ browserLanguages: ['es-MX'] })).toBe('es');

    storePreference(['de']);
    expect(detectLanguage({ browserLanguages: ['es-MX'] })).toBe('es');
  });

  it('reads the navigator when no browser languages are given', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['pt-BR', 'en']);
    expect(detectLanguage()).toBe('pt-BR');
  });

  it('still detects when storage is unavailable', () => {
    const storage = {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: () => undefined,
    };
    expect(detectLanguage({ storage, browserLanguages: ['de-DE'] })).toBe('de');
  });
});

describe('storeLanguagePreference', () => {
  it('writes the language and keeps other preferences', () => {
    storePreference({ currentLanguage: 'en', theme: 'dark' });
    storeLanguagePreference('it');
    expect(JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? 'null')).toEqual({
      currentLanguage: 'it',
      theme: 'dark',
    });
    expect(readStoredLanguage()).toBe('it');
  });
});

describe('menuLanguages', () => {
  it('offers English and French, adding the current language when it is another one', () => {
    expect(menuLanguages('fr')).toEqual(['en', 'fr']);
    expect(menuLanguages('en')).toEqual(['en', 'fr']);
    expect(menuLanguages('de')).toEqual(['en', 'fr', 'de']);
    expect(menuLanguages('pt-BR')).toEqual(['en', 'fr', 'pt-BR']);
  });

  it('adds the current language to the list it is given', () => {
    expect(menuLanguages('it', ['en'])).toEqual(['en', 'it']);
    expect(menuLanguages('en', ['en'])).toEqual(['en']);
  });
});
