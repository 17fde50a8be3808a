import { SUPPORTED_LANGUAGES } from '@gatehouse/frontend-shared';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../test-utils';
import { en } from './en';
import { adminPhraseLoaders } from './index';

function leaves(value: object, prefix = ''): Array<[string, unknown]> {
  return Object.entries(value).flatMap(([key, child]) =>
    child && typeof child === 'object' ? leaves(child as object, `${prefix}${key}.`) : [[`${prefix}${key}`, child] as [string, unknown]],
  );
}

describe('admin phrases', () => {
  it.each(SUPPORTED_LANGUAGES)('are complete and non-empty in %s, with the same placeholders', async (language) => {
    const phrases = await adminPhraseLoaders[language]();
    const reference = new Map(leaves(en));
    const translated = new Map(leaves(phrases));

    expect([...translated.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of translated) {
      expect(typeof text === 'string' && text.trim().length > 0, `${language} ${key}`).toBe(true);
      const placeholders = (value: unknown) => String(value).match(/{{\w+}}/g)?.sort() ?? [];
      expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(reference.get(key)));
    }
  });

  it('reach the components through the admin namespace, French slogan included', async () => {
    const i18n = await createTestI18n('fr');

    expect(i18n.t('admin:shell.slogan')).toBe("L'identité, en toute confiance.");
    expect(i18n.t('admin:menu.twoModeAuth')).toBe('Configuration MFA');
  });

  it('keep the spec wordings in English, its spelling mistakes corrected', () => {
    expect(en.common.errorTitle).toBe('An error occurred');
    expect(en.common.forbidden).toBe("You don't have permission to perform this action");
    expect(en.menu.controlPats).toBe('PATS Control');
  });
});
