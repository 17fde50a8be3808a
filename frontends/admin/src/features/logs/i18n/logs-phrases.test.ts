import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test-utils';
import { logsPhraseLoaders } from '.';
import { en } from './en';

describe('logs phrases', () => {
  const reference = new Map(leaves(en));

  it.each(SUPPORTED_LANGUAGES)('%s has every English key, none blank, with the same placeholders', async (language) => {
    const phrases = new Map(leaves(await logsPhraseLoaders[language]()));
    expect([...phrases.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of phrases) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language}: ${key}`).toBe(true);
      expect(placeholders(text), `${language}: ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it.each(SUPPORTED_LANGUAGES.filter((language) => language !== 'en'))('%s translates the page rather than copying English', async (language) => {
    const phrases = new Map(leaves(await logsPhraseLoaders[language]()));
    const translated = [...reference].filter(([key, text]) => phrases.get(key) !== text);
    expect(translated.length / reference.size).toBeGreaterThan(0.7);
  });

  it('keeps the spec’s wording in English', () => {
    expect(en.page.authentication).toBe('Authentication Logs');
    expect(en.page.system).toBe('System Logs');
    expect(en.page.session).toBe('Session Logs');
    expect(en.page.externalApiAccess).toBe('External Api Access Log');
    expect(en.results.FullUserLocked).toBe('Permanent lock');
  });

  it('reaches the page through the logs namespace, in French too', async () => {
    const i18n = await createTestI18n('fr', ['logs']);
    expect(i18n.t('logs:page.title')).toBe('Journaux');
    expect(i18n.t('logs:results.FullUserLocked')).toBe('Blocage permanent');
  });
});
