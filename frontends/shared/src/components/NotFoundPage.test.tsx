import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/create-i18n';
import { NotFoundPage } from './NotFoundPage';

describe('NotFoundPage', () => {
  it('tells in French that the page does not exist, with a link home', () => {
    render(<NotFoundPage />);

    expect(screen.getByRole('heading', { level: 1, name: 'Page introuvable' })).toBeInTheDocument();
    expect(
      screen.getByText("La page que vous recherchez n'existe pas ou a été supprimée."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/');
    expect(screen.getByRole('main')).toHaveAttribute('lang', 'fr');
  });

  it('stays French when the interface language is another one', () => {
    render(
      <I18nextProvider i18n={createI18n({ language: 'en' })}>
        <NotFoundPage />
      </I18nextProvider>,
    );

    expect(screen.getByRole('heading', { name: 'Page introuvable' })).toBeInTheDocument();
    expect(screen.getByRole('main', { name: 'Page introuvable' })).toBeInTheDocument();
  });
});
