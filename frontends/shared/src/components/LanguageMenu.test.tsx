import { fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/create-i18n';
import type { Language } from '../i18n/languages';
import { stubMatchMedia, stubResizeObserver } from '../testing/dom';
import { LanguageMenu } from './LanguageMenu';

beforeAll(() => {
  stubMatchMedia();
  stubResizeObserver();
});

function renderMenu(language: Language, languages?: readonly Language[]): I18n {
  const i18n = createI18n({ language });
  render(
    <I18nextProvider i18n={i18n}>
      <LanguageMenu label="Language" languages={languages} />
    </I18nextProvider>,
  );
  return i18n;
}

async function openMenu(current: string): Promise<HTMLElement> {
  fireEvent.click(screen.getByRole('button', { name: `Language: ${current}` }));
  return screen.findByRole('menu');
}

const choices = (menu: HTMLElement) => within(menu).getAllByRole('menuitem').map((item) => item.textContent);
const selected = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('menuitem')
    .filter((item) => item.classList.contains('ant-dropdown-menu-item-selected'))
    .map((item) => item.textContent);

describe('LanguageMenu', () => {
  it('offers English and French, the current one selected', async () => {
    renderMenu('fr');

    const menu = await openMenu('Français');
    expect(choices(menu)).toEqual(['English', 'Français']);
    expect(selected(menu)).toEqual(['Français']);
  });

  it.each([
    ['de', 'Deutsch'],
    ['es', 'Español'],
    ['it', 'Italiano'],
    ['pt-PT', 'Português (Portugal)'],
    ['pt-BR', 'Português (Brasil)'],
  ] as const)('adds the current language %s as a third choice, selected', async (language, name) => {
    renderMenu(language);

    const menu = await openMenu(name);
    expect(choices(menu)).toEqual(['English', 'Français', name]);
    expect(selected(menu)).toEqual([name]);
    expect(within(menu).getByText(name)).toHaveAttribute('lang', language);
  });

  it('adds the current language to a list the app gives too', async () => {
    renderMenu('pt-BR', ['en']);

    const menu = await openMenu('Português (Brasil)');
    expect(choices(menu)).toEqual(['English', 'Português (Brasil)']);
  });

  it('switches the language, and the added choice goes once it is no longer the current one', async () => {
    const i18n = renderMenu('de');

    fireEvent.click(within(await openMenu('Deutsch')).getByText('Français'));

    const menu = await openMenu('Français');
    expect(i18n.language).toBe('fr');
    expect(choices(menu)).toEqual(['English', 'Français']);
    expect(selected(menu)).toEqual(['Français']);
  });
});
