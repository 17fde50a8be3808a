import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../../test-utils';
import { scimPhraseLoaders } from '.';
import { en } from './en';

describe('scim phrases', () => {
  const reference = new Map(leaves(en));

  it.each(SUPPORTED_LANGUAGES)('%s has every English key, none blank, with the same placeholders', async (language) => {
    const phrases = new Map(leaves(await scimPhraseLoaders[language]()));
    expect([...phrases.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of phrases) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language}: ${key}`).toBe(true);
      expect(placeholders(text), `${language}: ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it.each(SUPPORTED_LANGUAGES.filter((language) => language !== 'en'))('%s translates the screens rather than copying English', async (language) => {
    const phrases = new Map(leaves(await scimPhraseLoaders[language]()));
    const translated = [...reference].filter(([key, text]) => phrases.get(key) !== text);
    expect(translated.length / reference.size).toBeGreaterThan(0.8);
  });

  it('speaks Brazilian Portuguese in pt-BR and European Portuguese in pt-PT', async () => {
    const [brazil, portugal] = await Promise.all([scimPhraseLoaders['pt-BR'](), scimPhraseLoaders['pt-PT']()]);
    expect(brazil.tab.intro).toContain('usuários');
    expect(brazil.tab.intro).toContain('exclui');
    expect(portugal.tab.intro).toContain('utilizadores');
    expect(portugal.tab.intro).toContain('elimina');
    expect(portugal.tab.intro).not.toContain('usuários');
  });

  it('reaches the tab through the scim namespace, in French too', async () => {
    const i18n = await createTestI18n('fr', ['scim']);
    expect(i18n.t('scim:tab.newToken')).toBe('Nouveau jeton');
    expect(i18n.t('scim:tokens.revokeConfirm', { name: 'Entra ID' })).toBe('Révoquer le jeton Entra ID ?');
  });
});
