import { PREFERENCES_STORAGE_KEY, type Language } from '@gatehouse/frontend-shared';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../test-utils';
import { LanguageSelector } from './LanguageSelector';

function renderSelector(language: Language) {
  const i18n = createTestI18n(language);
  render(
    <I18nextProvider i18n={i18n}>
      <LanguageSelector />
    </I18nextProvider>,
  );
  return i18n;
}

const buttons = (group: HTMLElement) => within(group).getAllByRole('button').map((button) => button.textContent);
const pressed = (group: HTMLElement) =>
  within(group)
    .getAllByRole('button')
    .filter((button) => button.getAttribute('aria-pressed') === 'true')
    .map((button) => button.textContent);

describe('LanguageSelector', () => {
  it('offers English and French, the page’s language pressed', () => {
    renderSelector('en');

    const group = screen.getByRole('group', { name: 'Language' });
    expect(buttons(group)).toEqual(['English', 'Français']);
    expect(pressed(group)).toEqual(['English']);
  });

  it('shows a German page’s language pressed, as a third choice', () => {
    renderSelector('de');

    const group = screen.getByRole('group', { name: 'Sprache' });
    expect(buttons(group)).toEqual(['English', 'Français', 'Deutsch']);
    expect(pressed(group)).toEqual(['Deutsch']);
    expect(within(group).getByRole('button', { name: 'Deutsch' })).toHaveAttribute('lang', 'de');
  });

  it.each([
    ['es', 'Español'],
    ['it', 'Italiano'],
    ['pt-PT', 'Português (Portugal)'],
    ['pt-BR', 'Português (Brasil)'],
  ] as const)('does the same for %s', (language, name) => {
    renderSelector(language);

    const group = screen.getByRole('group');
    expect(buttons(group)).toEqual(['English', 'Français', name]);
    expect(pressed(group)).toEqual([name]);
  });

  it('switches from German to French and stores the choice', async () => {
    const i18n = renderSelector('de');

    fireEvent.click(within(screen.getByRole('group', { name: 'Sprache' })).getByRole('button', { name: 'Français' }));

    const group = await screen.findByRole('group', { name: 'Langue' });
    expect(i18n.language).toBe('fr');
    expect(buttons(group)).toEqual(['English', 'Français']);
    expect(pressed(group)).toEqual(['Français']);
    expect(JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? '{}')).toMatchObject({ currentLanguage: 'fr' });
  });
});
