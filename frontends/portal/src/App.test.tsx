import { createI18n, type Language } from '@gatehouse/frontend-shared';
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PortalConfig } from './api/portal-config';
import { App } from './App';

const config: PortalConfig = {
  serviceUrl: window.location.origin,
  apps: [],
  scopes: ['openid', 'profile', 'email'],
  clientId: 'gatehouse-portal',
  identityServerUrl: `${window.location.origin}/oidc`,
  environment: 'test',
};

const fetchMock = vi.fn<typeof fetch>();

function renderAt(path: string, language: Language = 'en') {
  window.history.pushState(null, '', path);
  return render(<App i18n={createI18n({ language })} />);
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

describe('portal routes', () => {
  it('shows the French not-found page for an unknown path', () => {
    renderAt('/does-not-exist/really', 'en');

    expect(screen.getByRole('heading', { level: 1, name: 'Page introuvable' })).toBeInTheDocument();
    expect(
      screen.getByText("La page que vous recherchez n'existe pas ou a été supprimée."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('welcomes the user once the configuration is loaded', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify(config), { headers: { 'Content-Type': 'application/json' } }),
    );
    renderAt('/');

    expect(screen.getByRole('heading', { level: 1, name: 'Gatehouse' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');

    expect(
      await screen.findByText(
        'Welcome to your Gatehouse portal. From here you will manage your account and your sign-in methods.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Environment: test')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/config');
    expect(new Headers(init?.headers).get('Accept-Language')).toBe('en');
  });

  it('welcomes in the user language', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify(config)));
    renderAt('/', 'fr');

    expect(
      await screen.findByText(/^Bienvenue sur votre portail Gatehouse\./),
    ).toBeInTheDocument();
  });

  it('reports a configuration that cannot be loaded', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ code: 'internal', message: 'Boom' }), { status: 500 }),
    );
    renderAt('/');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The configuration could not be loaded. Please try again later.',
    );
  });

  it('shows the sign-in placeholder under /account', () => {
    renderAt('/account/login');

    expect(screen.getByRole('heading', { level: 1, name: 'Sign-in' })).toBeInTheDocument();
  });

  it('shows the profile placeholder under /profile', () => {
    renderAt('/profile');

    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
  });
});
