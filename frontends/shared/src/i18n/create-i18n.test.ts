import { describe, expect, it, vi } from 'vitest';
import { changeLanguage, createI18n } from './create-i18n';
import { PREFERENCES_STORAGE_KEY, SUPPORTED_LANGUAGES, type Language } from './languages';
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
    expect(i18n.t('common.errors.accessDenied')).toBe('Accès refusé');
  });

  it('falls back to English for a key missing at runtime', () => {
    const incompleteGerman = structuredClone(resources.de.translation);
    delete (incompleteGerman.common.errors as Partial<Phrases['common']['errors']>).notFound;
    const i18n = createI18n({
      language: 'de',
      resources: { ...resources, de: { translation: incompleteGerman } },
    });
    expect(i18n.t('common.errors.notFound')).toBe('Not found');
    expect(i18n.t('common.errors.unknown')).toBe('Unbekannter Fehler');
  });

  it("registers an app's own namespaces next to the shared one", () => {
    const greetings = {
      en: { hello: 'Hello' },
      fr: { hello: 'Bonjour' },
      es: { hello: 'Hola' },
      'pt-PT': { hello: 'Olá' },
      'pt-BR': { hello: 'Oi' },
      it: { hello: 'Ciao' },
      de: { hello: 'Hallo' },
    };
    const i18n = createI18n({ language: 'it', namespaces: { greetings } });
    expect(i18n.options.ns).toEqual(['translation', 'greetings']);
    expect(i18n.getResource('it', 'greetings', 'hello')).toBe('Ciao');
    expect(i18n.getResource('pt-BR', 'greetings', 'hello')).toBe('Oi');
    expect(i18n.t('common.loading')).toBe('Caricamento…');
  });

  it('fetches a namespace given as loaders in the languages in use only, when first asked for', async () => {
    const loaded: string[] = [];
    const loaders = Object.fromEntries(
      SUPPORTED_LANGUAGES.map((language) => [
        language,
        async () => {
          loaded.push(language);
          return { hello: `hello in ${language}` };
        },
      ]),
    ) as Record<Language, () => Promise<object>>;
    const i18n = createI18n({ language: 'de', namespaces: { greetings: loaders } });
    expect(loaded).toEqual([]);
    expect(i18n.t('common.loading')).toBe('Wird geladen…');

    await i18n.loadNamespaces('greetings');
    expect(loaded.sort()).toEqual(['de', 'en']);
    expect(i18n.getResource('de', 'greetings', 'hello')).toBe('hello in de');

    await changeLanguage(i18n, 'pt-BR');
    expect(loaded).toContain('pt-BR');
    expect(loaded).not.toContain('fr');
    expect(i18n.getResource('pt-BR', 'greetings', 'hello')).toBe('hello in pt-BR');
  });

  it('fetches a preloaded namespace at start', async () => {
    const loader = vi.fn<() => Promise<object>>(async () => ({ hello: 'Bonjour' }));
    const loaders = Object.fromEntries(SUPPORTED_LANGUAGES.map((language) => [language, () => loader()])) as Record<
      Language,
      () => Promise<object>
    >;
    const i18n = createI18n({ language: 'fr', namespaces: { greetings: loaders }, preload: ['greetings'] });
    await vi.waitFor(() => expect(i18n.hasResourceBundle('fr', 'greetings')).toBe(true));
    expect(loader).toHaveBeenCalled();
  });

  it('refuses to replace the shared namespace', () => {
    expect(() => createI18n({ namespaces: { translation: resources.en.translation as never } })).toThrow(/shared/);
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
    const incomplete: Phrases = { common: en.common };
    expect(incomplete).not.toHaveProperty('admin');
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
