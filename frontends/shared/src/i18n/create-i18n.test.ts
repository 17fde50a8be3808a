import { describe, expect, it } from 'vitest';
import { changeLanguage, createI18n } from './create-i18n';
import { PREFERENCES_STORAGE_KEY, SUPPORTED_LANGUAGES } from './languages';
import { en, type Phrases } from './locales/en';
import { resources } from './resources';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keyPaths(child, prefix ? `${prefix}.${key}` : key),
  );
}

describe('createI18n', () => {
  it('uses the stored preference over the browser language', () => {
    localStorage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify({ currentLanguage: 'it' }));
    const i18n = createI18n({ detection: { browserLanguages: ['de-DE'] } });
    expect(i18n.language).toBe('it');
    expect(i18n.t('admin.dashboard.title')).toBe('Amministrazione');
  });

  it('uses a supported browser language', () => {
    const i18n = createI18n({ detection: { browserLanguages: ['pt'] } });
    expect(i18n.language).toBe('pt-PT');
    expect(i18n.t('common.loading')).toBe('A carregar…');
  });

  it('starts in French when the browser language is unsupported', () => {
    const i18n = createI18n({ detection: { browserLanguages: ['ja-JP'] } });
    expect(i18n.language).toBe('fr');
    expect(i18n.t('portal.account.title')).toBe('Connexion');
  });

  it('falls back to English for a key missing at runtime', () => {
    const incompleteGerman = structuredClone(resources.de.translation);
    delete (incompleteGerman.portal.account as Partial<Phrases['portal']['account']>).title;
    const i18n = createI18n({
      language: 'de',
      resources: { ...resources, de: { translation: incompleteGerman } },
    });
    expect(i18n.t('portal.account.title')).toBe('Sign-in');
    expect(i18n.t('portal.account.placeholder')).toBe('Die Anmeldeseiten sind bald verfügbar.');
  });

  it('interpolates without HTML-escaping, since React escapes on render', () => {
    const i18n = createI18n({ language: 'fr' });
    expect(i18n.t('admin.dashboard.placeholder', { productName: 'Gatehouse' })).toBe(
      "La console d'administration Gatehouse sera bientôt disponible ici.",
    );
  });

  it('ships every English key in every language', () => {
    const expected = keyPaths(en).sort();
    for (const language of SUPPORTED_LANGUAGES) {
      const phrases = resources[language].translation;
      expect(keyPaths(phrases).sort(), language).toEqual(expected);
      for (const path of expected) {
        const value = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], phrases);
        expect(typeof value === 'string' && value.trim().length > 0, `${language}: ${path}`).toBe(true);
      }
    }
  });

  it('types every language as the English phrases', () => {
    // @ts-expect-error a language missing a key must not type-check
    const incomplete: Phrases = { common: en.common, admin: en.admin };
    expect(incomplete).not.toHaveProperty('portal');
  });

  it('persists a language change and mirrors it on <html lang>', async () => {
    const i18n = createI18n({ language: 'en' });
    expect(document.documentElement.lang).toBe('en');
    await changeLanguage(i18n, 'pt-BR');
    expect(i18n.language).toBe('pt-BR');
    expect(document.documentElement.lang).toBe('pt-BR');
    expect(JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? 'null')).toEqual({
      currentLanguage: 'pt-BR',
    });
  });
});
