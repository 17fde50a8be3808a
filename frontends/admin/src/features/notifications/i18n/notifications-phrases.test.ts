import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { JOB_TYPES, NOTIFICATION_TYPES } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test-utils';
import { notificationsPhraseLoaders } from '.';
import { en } from './en';

describe('notifications phrases', () => {
  const reference = new Map(leaves(en));

  it.each(SUPPORTED_LANGUAGES)('%s has every English key, none blank, with the same placeholders', async (language) => {
    const phrases = new Map(leaves(await notificationsPhraseLoaders[language]()));
    expect([...phrases.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of phrases) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language}: ${key}`).toBe(true);
      expect(placeholders(text), `${language}: ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it.each(SUPPORTED_LANGUAGES.filter((language) => language !== 'en'))('%s translates the flyout rather than copying English', async (language) => {
    const phrases = new Map(leaves(await notificationsPhraseLoaders[language]()));
    const translated = [...reference].filter(([key, text]) => phrases.get(key) !== text);
    expect(translated.length / reference.size).toBeGreaterThan(0.8);
  });

  it('names every notification and job type the API knows', () => {
    expect(Object.keys(en.types).sort()).toEqual([...NOTIFICATION_TYPES].sort());
    for (const type of JOB_TYPES) expect(en.types).toHaveProperty(type);
  });

  it('keeps the spec’s wording in English', () => {
    expect(en.drawer.empty).toBe('No Notifications');
    expect(en.data.openResult).toBe('Open Result');
  });

  it('reaches the flyout through the notifications namespace, in French too', async () => {
    const i18n = await createTestI18n('fr', ['notifications']);
    expect(i18n.t('notifications:drawer.empty')).toBe('Aucune notification');
    expect(i18n.t('notifications:button.unread', { count: 2 })).toBe('2 notifications non lues');
  });
});
