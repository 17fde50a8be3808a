import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test-utils';
import { applicationsPhraseLoaders } from '.';
import { en } from './en';

describe('applications phrases', () => {
  const reference = new Map(leaves(en));

  it.each(SUPPORTED_LANGUAGES)('%s has every English key, none blank, with the same placeholders', async (language) => {
    const phrases = new Map(leaves(await applicationsPhraseLoaders[language]()));
    expect([...phrases.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of phrases) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language}: ${key}`).toBe(true);
      expect(placeholders(text), `${language}: ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it.each(SUPPORTED_LANGUAGES.filter((language) => language !== 'en'))('%s translates the screens rather than copying English', async (language) => {
    const phrases = new Map(leaves(await applicationsPhraseLoaders[language]()));
    const translated = [...reference].filter(([key, text]) => phrases.get(key) !== text);
    expect(translated.length / reference.size).toBeGreaterThan(0.8);
  });

  it('keeps the spec’s wording in English', () => {
    expect(en.form.displayNameRequired).toBe('Please input the application display name!');
    expect(en.form.privateUrlRequired).toBe('Please input the application private URL!');
    expect(en.form.redirectUrisRequired).toBe('Please input the application redirect URIs!');
    expect(en.list.deleted).toBe('Application deleted successfully.');
    expect(en.list.deleteFailed).toBe('Failed to delete the application. Please try again later.');
  });

  it('reaches the pages through the applications namespace, in French too', async () => {
    const i18n = await createTestI18n('fr', ['applications']);
    expect(i18n.t('applications:list.newApplication')).toBe('Nouvelle application');
    expect(i18n.t('applications:status.Stopped')).toBe('Arrêtée');
  });
});
