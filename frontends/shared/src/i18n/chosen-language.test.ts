import { afterEach, describe, expect, it } from 'vitest';
import { applyChosenLanguage, chosenLanguage } from './chosen-language';
import { createI18n } from './create-i18n';
import { PREFERENCES_STORAGE_KEY } from './languages';

afterEach(() => localStorage.clear());

describe('the language a person chose follows them to every device at sign-in', () => {
  it('takes the locale only when the person chose it, never while someone acts as them, and only a language the product speaks', () => {
    expect(chosenLanguage({ locale: 'de', locale_chosen: true })).toBe('de');
    expect(chosenLanguage({ locale: 'pt-BR', locale_chosen: true })).toBe('pt-BR');
    // An administrator's pick or the creation default: the browser keeps its own choice.
    expect(chosenLanguage({ locale: 'fr' })).toBeUndefined();
    expect(chosenLanguage({ locale: 'fr', locale_chosen: 'true' })).toBeUndefined();
    expect(chosenLanguage({ locale: 'de', locale_chosen: true, act: { sub: 'god-1' } })).toBeUndefined();
    expect(chosenLanguage({ locale: 'ja', locale_chosen: true })).toBeUndefined();
    expect(chosenLanguage(undefined)).toBeUndefined();
  });

  it('switches an English interface to the chosen language and stores it as this browser’s preference', async () => {
    const i18n = createI18n({ detection: { browserLanguages: ['en-US'] } });
    expect(i18n.language).toBe('en');

    await applyChosenLanguage({ locale: 'de', locale_chosen: true }, i18n);

    expect(i18n.language).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? 'null')).toMatchObject({ currentLanguage: 'de' });
  });

  it('leaves the interface and the stored preference alone for a language the person did not choose', async () => {
    const i18n = createI18n({ detection: { browserLanguages: ['en-US'] } });

    await applyChosenLanguage({ locale: 'fr' }, i18n);

    expect(i18n.language).toBe('en');
    expect(localStorage.getItem(PREFERENCES_STORAGE_KEY)).toBeNull();
  });
});
