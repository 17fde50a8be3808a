import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test-utils';
import { directoryPhrases } from '.';
import { en } from './en';

describe('directory phrases', () => {
  const reference = new Map(leaves(en));

  it.each(SUPPORTED_LANGUAGES)('%s has every English key, none blank, with the same placeholders', (language) => {
    const phrases = new Map(leaves(directoryPhrases[language]));
    expect([...phrases.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of phrases) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language}: ${key}`).toBe(true);
      expect(placeholders(text), `${language}: ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it.each(SUPPORTED_LANGUAGES.filter((language) => language !== 'en'))('%s translates the screens rather than copying English', (language) => {
    const phrases = new Map(leaves(directoryPhrases[language]));
    const translated = [...reference].filter(([key, text]) => phrases.get(key) !== text);
    expect(translated.length / reference.size).toBeGreaterThan(0.8);
  });

  it('keeps the spec’s wording in English, its spelling mistakes corrected', () => {
    expect(en.common.errorTitle).toBe('An error occurred');
    expect(en.common.forbidden).toBe("You don't have permission to perform this action");
    expect(en.bulkDelete.done).toBe('{{count}} elements deleted successfully');
    expect(en.bulkDelete.done_one).toBe('{{count}} element deleted successfully');
    expect(en.roleAccess.revokeConfirm).toBe('Are you sure to revoke this access?');
    expect(en.roleAccess.onlyAdmin).toBe('Only Admin can revoke this access');
  });

  it.each([
    ['en', '1 element deleted successfully', '3 elements deleted successfully'],
    ['fr', '1 élément supprimé avec succès', '3 éléments supprimés avec succès'],
    ['de', '1 Element erfolgreich gelöscht', '3 Elemente erfolgreich gelöscht'],
  ] as const)('counts deleted elements in the singular and the plural (%s)', async (language, one, several) => {
    const i18n = await createTestI18n(language, ['directory']);
    expect(i18n.t('directory:bulkDelete.done', { count: 1 })).toBe(one);
    expect(i18n.t('directory:bulkDelete.done', { count: 3 })).toBe(several);
  });
});
