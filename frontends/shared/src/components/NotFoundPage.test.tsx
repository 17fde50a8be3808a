import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, createI18n } from '../i18n/create-i18n';
import { PREFERENCES_STORAGE_KEY, type Language } from '../i18n/languages';
import { NotFoundPage } from './NotFoundPage';

function browserLanguages(languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
}

beforeEach(() => {
  // Creating an i18n instance sets the document's language; each test starts without one.
  document.documentElement.lang = '';
  browserLanguages(['ja-JP']);
});

describe('NotFoundPage', () => {
  it('tells in French, when nothing else is known, that the page does not exist, with a link home', () => {
    render(<NotFoundPage />);

    expect(screen.getByRole('heading', { level: 1, name: 'Page introuvable' })).toBeInTheDocument();
    expect(screen.getByText("La page que vous recherchez n'existe pas ou a été supprimée.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/');
    expect(screen.getByRole('main', { name: 'Page introuvable' })).toHaveAttribute('lang', 'fr');
  });

  it('speaks the language of the i18n provider, and follows its changes', async () => {
    const i18n = createI18n({ language: 'en' });
    render(
      <I18nextProvider i18n={i18n}>
        <NotFoundPage />
      </I18nextProvider>,
    );

    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('The page you are looking for does not exist or has been deleted.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('main')).toHaveAttribute('lang', 'en');

    await act(async () => {
      await changeLanguage(i18n, 'pt-BR');
    });
    expect(screen.getByRole('main', { name: 'Página não encontrada' })).toHaveAttribute('lang', 'pt-BR');
  });

  it.each([
    ['en', 'Page not found', 'Back to home'],
    ['fr', 'Page introuvable', "Retour à l'accueil"],
    ['es', 'Página no encontrada', 'Volver al inicio'],
    ['it', 'Pagina non trovata', 'Torna alla home'],
    ['de', 'Seite nicht gefunden', 'Zurück zur Startseite'],
    ['pt-PT', 'Página não encontrada', 'Voltar ao início'],
    ['pt-BR', 'Página não encontrada', 'Voltar para o início'],
  ] satisfies Array<[Language, string, string]>)('has its phrases in %s', (language, title, action) => {
    render(
      <I18nextProvider i18n={createI18n({ language })}>
        <NotFoundPage />
      </I18nextProvider>,
    );

    expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: action })).toBeInTheDocument();
  });

  describe('without an i18n provider', () => {
    it("takes the document's language", () => {
      document.documentElement.lang = 'es';
      localStorage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify({ currentLanguage: 'de' }));
      render(<NotFoundPage />);

      expect(screen.getByRole('main', { name: 'Página no encontrada' })).toHaveAttribute('lang', 'es');
    });

    it('else the stored preference', () => {
      localStorage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify({ currentLanguage: 'de' }));
      browserLanguages(['it-IT']);
      render(<NotFoundPage />);

      expect(screen.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeInTheDocument();
      expect(screen.getByText('Die gesuchte Seite existiert nicht oder wurde gelöscht.')).toBeInTheDocument();
    });

    it("else the browser's language", () => {
      browserLanguages(['ja', 'it-IT']);
      render(<NotFoundPage />);

      expect(screen.getByRole('main', { name: 'Pagina non trovata' })).toHaveAttribute('lang', 'it');
    });
  });
});
