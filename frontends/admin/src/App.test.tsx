import { createI18n, type Language } from '@gatehouse/frontend-shared';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from './App';

function renderAt(path: string, language: Language = 'en') {
  window.history.pushState(null, '', path);
  return render(<App i18n={createI18n({ language })} />);
}

describe('admin routes', () => {
  it.each(['/admin', '/admin/'])('shows the dashboard at %s', (path) => {
    renderAt(path);

    expect(screen.getByRole('heading', { level: 1, name: 'Administration' })).toBeInTheDocument();
    expect(
      screen.getByText('The Gatehouse administration console will be available here soon.'),
    ).toBeInTheDocument();
  });

  it('translates the dashboard heading', () => {
    renderAt('/admin/', 'it');

    expect(screen.getByRole('heading', { level: 1, name: 'Amministrazione' })).toBeInTheDocument();
  });

  it('shows the French not-found page for an unknown path under /admin', () => {
    renderAt('/admin/users/unknown');

    expect(screen.getByRole('heading', { level: 1, name: 'Page introuvable' })).toBeInTheDocument();
    expect(
      screen.getByText("La page que vous recherchez n'existe pas ou a été supprimée."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('heading', { name: 'Administration' })).not.toBeInTheDocument();
  });
});
