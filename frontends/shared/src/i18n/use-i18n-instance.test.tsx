import { act, render } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { changeLanguage, createI18n } from './create-i18n';
import { useI18nInstance } from './use-i18n-instance';

describe('useI18nInstance', () => {
  it('hands out the instance itself, where useTranslation hands out a copy per language', async () => {
    const i18n = createI18n({ language: 'en' });
    const seen: Array<{ instance: I18n; copy: I18n }> = [];
    function Probe() {
      seen.push({ instance: useI18nInstance(), copy: useTranslation().i18n });
      return null;
    }
    render(
      <I18nextProvider i18n={i18n}>
        <Probe />
      </I18nextProvider>,
    );

    await act(async () => {
      await changeLanguage(i18n, 'it');
    });

    const first = seen[0]!;
    const last = seen[seen.length - 1]!;
    expect(first.instance).toBe(i18n);
    expect(last.instance).toBe(i18n);
    expect(last.copy).not.toBe(first.copy);
    expect(first.copy.language).toBe('en');
    expect(i18n.language).toBe('it');
  });
});
