import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { describe, expect, it } from 'vitest';
import { createPortalI18n } from '.';
import { en } from './portal/en';
import { portalResources } from './portal';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
}

describe('portal phrases', () => {
  it('ship every English key, non-empty, in every language', async () => {
    const expected = keyPaths(en).sort();
    for (const language of SUPPORTED_LANGUAGES) {
      const phrases = await portalResources[language]();
      expect(keyPaths(phrases).sort(), language).toEqual(expected);
      for (const path of expected) {
        const value = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], phrases);
        expect(typeof value === 'string' && value.trim().length > 0, `${language}: ${path}`).toBe(true);
      }
    }
  });

  it('keep the placeholders of the English phrases', async () => {
    const placeholders = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((match) => match[1]).sort();
    for (const language of SUPPORTED_LANGUAGES) {
      const phrases = await portalResources[language]();
      for (const path of keyPaths(en)) {
        const read = (source: unknown) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], source) as string;
        expect(placeholders(read(phrases)), `${language}: ${path}`).toEqual(placeholders(read(en)));
      }
    }
  });

  it('load on first use, in the current language and the English fallback', async () => {
    const i18n = createPortalI18n({ language: 'it' });
    expect(i18n.hasResourceBundle('it', 'portal')).toBe(false);

    await i18n.loadNamespaces('portal');

    expect(i18n.getFixedT('it', 'portal')('home.empty')).toBe(
      "Sembra che tu non abbia accesso ad alcuna applicazione. Contatta l'amministratore.",
    );
    expect(i18n.hasResourceBundle('en', 'portal')).toBe(true);
    expect(i18n.hasResourceBundle('de', 'portal')).toBe(false);
    expect(i18n.hasResourceBundle('fr', 'portal')).toBe(false);
  });

  it('count down in the plural forms of each language', async () => {
    const i18n = createPortalI18n({ language: 'fr' });
    await i18n.loadNamespaces('portal');
    const t = i18n.getFixedT('fr', 'portal');
    expect(t('session.expiredCountdown', { count: 1 })).toBe('Vous serez déconnecté dans 1 seconde.');
    expect(t('session.expiredCountdown', { count: 0 })).toBe('Vous serez déconnecté dans 0 seconde.');
    expect(t('session.expiredCountdown', { count: 5 })).toBe('Vous serez déconnecté dans 5 secondes.');
  });

  it('preload the account phrases at start', async () => {
    const i18n = createPortalI18n({ language: 'es' });
    await i18n.loadNamespaces('account');
    expect(i18n.hasResourceBundle('es', 'account')).toBe(true);
  });
});
