import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test-utils';
import { tenantsPhraseLoaders } from '.';
import { en } from './en';

describe('tenants phrases', () => {
  const reference = new Map(leaves(en));

  it.each(SUPPORTED_LANGUAGES)('%s has every English key, none blank, with the same placeholders', async (language) => {
    const phrases = new Map(leaves(await tenantsPhraseLoaders[language]()));
    expect([...phrases.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of phrases) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language}: ${key}`).toBe(true);
      expect(placeholders(text), `${language}: ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it.each(SUPPORTED_LANGUAGES.filter((language) => language !== 'en'))('%s translates the screens rather than copying English', async (language) => {
    const phrases = new Map(leaves(await tenantsPhraseLoaders[language]()));
    const translated = [...reference].filter(([key, text]) => phrases.get(key) !== text);
    expect(translated.length / reference.size).toBeGreaterThan(0.8);
  });

  it('keeps the spec’s wording in English', () => {
    expect(en.form.newTitle).toBe('New Entity');
    expect(en.form.titleRequired).toBe('Please enter a title');
    expect(en.form.areaRequired).toBe('Area is required');
    expect(en.detail.changeParentConfirm).toBe('Are you sure you want to change the parent of this tenant?');
    expect(en.detail.changeParentWarning).toBe('This action can affect users permissions');
    expect(en.detail.unexpectedError).toBe('Unexpected error');
    expect(en.detail.saved).toBe('Changes have been saved');
    expect(en.addMember.title).toBe('Add Member to Tenant');
    expect(en.members.includeGlobal).toBe('Include Users Global');
    expect(en.revoke.confirm).toBe('Are you sure to revoke this access?');
    expect(en.revoke.onlyAdmin).toBe('Only Admin can revoke this access');
  });

  it('reaches the pages through the tenants namespace, in French too', async () => {
    const i18n = await createTestI18n('fr', ['tenants']);
    expect(i18n.t('tenants:form.newTitle')).toBe('Nouvelle entité');
    expect(i18n.t('tenants:detail.changeParent')).toBe('Changer l’entité parente');
  });
});
