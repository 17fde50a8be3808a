import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { phraseLeaves as leaves, placeholderNames as placeholders } from '@gatehouse/frontend-shared/testing';
import { describe, expect, it } from 'vitest';
import { accountResources } from '.';
import { en } from './en';

describe('account phrases', () => {
  const reference = new Map(leaves(en));

  it.each(SUPPORTED_LANGUAGES)('%s has every English key, none blank, with the same placeholders', (language) => {
    const phrases = new Map(leaves(accountResources[language]));
    expect([...phrases.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of phrases) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language}: ${key}`).toBe(true);
      expect(placeholders(text), `${language}: ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it('keeps the spec’s own wording in English', () => {
    expect(en.login.unknownError).toBe('Unknow Error , please refresh the page');
    expect(en.forgot.missingTitle).toBe('Email missing');
    expect(en.twoFactor.expired).toBe('Code expired!');
    expect(en.password.mismatch).toBe("Passwords don't match");
  });
});
