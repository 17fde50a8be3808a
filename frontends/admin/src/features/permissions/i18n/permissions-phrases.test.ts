import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test-utils';
import { permissionsPhraseLoaders } from '.';
import { en } from './en';

describe('permissions phrases', () => {
  const reference = new Map(leaves(en));

  it.each(SUPPORTED_LANGUAGES)('%s has every English key, none blank, with the same placeholders', async (language) => {
    const phrases = new Map(leaves(await permissionsPhraseLoaders[language]()));
    expect([...phrases.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of phrases) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language}: ${key}`).toBe(true);
      expect(placeholders(text), `${language}: ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it.each(SUPPORTED_LANGUAGES.filter((language) => language !== 'en'))('%s translates the screens rather than copying English', async (language) => {
    const phrases = new Map(leaves(await permissionsPhraseLoaders[language]()));
    const translated = [...reference].filter(([key, text]) => phrases.get(key) !== text);
    expect(translated.length / reference.size).toBeGreaterThan(0.8);
  });

  it('keeps the spec’s wording in English', () => {
    expect(en.group.title).toBe('Group Details - {{name}}');
    expect(en.check.selectUser).toBe('Please select a user to check permissions');
    expect(en.check.noGroups).toBe('No groups found for this user');
    expect(en.mfa.saved).toBe('Changes have been saved');
    expect(en.mfa.title).toBe('MFA Configuration');
  });

  it('reaches the pages through the permissions namespace, in French too', async () => {
    const i18n = await createTestI18n('fr', ['permissions']);
    expect(i18n.t('permissions:group.title', { name: 'Ventes' })).toBe('Détails du groupe - Ventes');
    expect(i18n.t('permissions:check.noGroups')).toBe('Aucun groupe trouvé pour cet utilisateur');
  });
});
