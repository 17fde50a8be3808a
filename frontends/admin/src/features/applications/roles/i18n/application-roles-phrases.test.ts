import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../../test-utils';
import { en } from './en';
import { applicationRolesPhraseLoaders } from '.';

describe('application roles phrases', () => {
  const reference = new Map(leaves(en));

  it.each(SUPPORTED_LANGUAGES)('%s has every English key, none blank, with the same placeholders', async (language) => {
    const phrases = new Map(leaves(await applicationRolesPhraseLoaders[language]()));
    expect([...phrases.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of phrases) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language}: ${key}`).toBe(true);
      expect(placeholders(text), `${language}: ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it.each(SUPPORTED_LANGUAGES.filter((language) => language !== 'en'))('%s translates the screens rather than copying English', async (language) => {
    const phrases = new Map(leaves(await applicationRolesPhraseLoaders[language]()));
    const translated = [...reference].filter(([key, text]) => phrases.get(key) !== text);
    expect(translated.length / reference.size).toBeGreaterThan(0.8);
  });

  it('keeps the spec’s messages in English', () => {
    expect(en.roles.nameRequired).toBe('Please input your API title!');
    expect(en.scopes.scopeRequired).toBe('Please enter the scope!');
    expect(en.scopes.newScope).toBe("New role's scope");
    expect(en.roleDetail.scopesTab).toBe('Role access scopes');
  });

  it.each([
    ['en', '1 user or group holds this role', '4 users or groups hold this role'],
    ['fr', '1 utilisateur ou groupe détient ce rôle', '4 utilisateurs ou groupes détiennent ce rôle'],
  ] as const)('counts a role’s holders in the singular and the plural (%s)', async (language, one, several) => {
    const i18n = await createTestI18n(language, ['applicationRoles']);
    expect(i18n.t('applicationRoles:roles.deleteHeld', { count: 1 })).toContain(one);
    expect(i18n.t('applicationRoles:roles.deleteHeld', { count: 4 })).toContain(several);
  });
});
