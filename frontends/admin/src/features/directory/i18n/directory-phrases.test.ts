import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { describe, expect, it } from 'vitest';
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

  it('keeps the spec’s own wording in English', () => {
    expect(en.common.errorTitle).toBe('An error ocurred');
    expect(en.common.forbidden).toBe('You dont have permission to perform this action');
    expect(en.bulkDelete.done).toBe('{{count}} elements deleted successful');
    expect(en.roleAccess.revokeConfirm).toBe('Are you sure to revoke this access?');
    expect(en.roleAccess.onlyAdmin).toBe('Only Admin can revoke this access');
  });
});
