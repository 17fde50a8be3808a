import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '@gatehouse/contracts';
import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test-utils';
import { webhooksPhraseLoaders } from '.';
import { en } from './en';

describe('webhooks phrases', () => {
  const reference = new Map(leaves(en));

  it.each(SUPPORTED_LANGUAGES)('%s has every English key, none blank, with the same placeholders', async (language) => {
    const phrases = new Map(leaves(await webhooksPhraseLoaders[language]()));
    expect([...phrases.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of phrases) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language}: ${key}`).toBe(true);
      expect(placeholders(text), `${language}: ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it.each(SUPPORTED_LANGUAGES.filter((language) => language !== 'en'))('%s translates the screens rather than copying English', async (language) => {
    const phrases = new Map(leaves(await webhooksPhraseLoaders[language]()));
    const translated = [...reference].filter(([key, text]) => phrases.get(key) !== text);
    expect(translated.length / reference.size).toBeGreaterThan(0.8);
  });

  it('names every event type and delivery status of the contract', () => {
    const names = new Set([...reference.keys()]);
    for (const type of WEBHOOK_EVENT_TYPES) expect(names, type).toContain(`events.${type}`);
    expect(Object.keys(en.deliveryStatus).sort()).toEqual([...WEBHOOK_DELIVERY_STATUSES].sort());
  });

  it('reaches the pages through the webhooks namespace, an event type’s dotted name included, in French too', async () => {
    const i18n = await createTestI18n('fr', ['webhooks']);
    expect(i18n.t('webhooks:list.newEndpoint')).toBe('Nouveau point de terminaison');
    expect(i18n.t('webhooks:events.role.granted')).toBe('Rôle attribué');
    expect(i18n.t('webhooks:events.group.member_added')).toBe('Membre ajouté à un groupe');
    expect(i18n.t('webhooks:list.eventCount', { count: 1 })).toBe('1 événement');
    expect(i18n.t('webhooks:list.eventCount', { count: 3 })).toBe('3 événements');
  });
});
