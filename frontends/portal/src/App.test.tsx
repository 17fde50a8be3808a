import { changeLanguage } from '@gatehouse/frontend-shared';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { loadSession } from './auth/session';
import { createPortalI18n } from './i18n';
import { FakeAuth, app, homeInfo, makeUser, stubApi, testConfig } from './test-utils';

vi.mock('./account', () => ({
  AccountRoutes: function AccountStub() {
    return <p>Account area at {useLocation().pathname}</p>;
  },
}));

vi.mock('./auth/session', () => ({ loadSession: vi.fn() }));

class CallbackAuth extends FakeAuth {
  completeSignIn = vi.fn(async (_url?: string) => '/profile');
}

function renderAt(path: string) {
  window.history.pushState(null, '', path);
  return render(<App i18n={createPortalI18n({ language: 'en' })} />);
}

beforeEach(() => {
  stubApi({
    'GET /api/v1/admin/applications/homeInfo': homeInfo([]),
    'GET /api/v1/applications/status/portal': new Response('Running'),
  });
});

afterEach(() => {
  vi.mocked(loadSession).mockReset();
});

const REDIRECTING = 'Taking you to the sign-in page…';

describe('portal routes', () => {
  it.each(['/does-not-exist/really', '/home'])('shows the not-found page in the user’s language at %s, loading nothing', async (path) => {
    renderAt(path);

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('The page you are looking for does not exist or has been deleted.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(loadSession).not.toHaveBeenCalled();
  });

  it('shows the not-found page in French to a French user', async () => {
    window.history.pushState(null, '', '/nowhere');
    render(<App i18n={createPortalI18n({ language: 'fr' })} />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Page introuvable' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/');
  });

  it('mounts the account area under /account without the sign-in machinery', async () => {
    renderAt('/account/login?interaction=abc');

    expect(await screen.findByText('Account area at /account/login')).toBeInTheDocument();
    expect(loadSession).not.toHaveBeenCalled();
  });

  it('shows the home in the shell to a signed-in user', async () => {
    vi.mocked(loadSession).mockResolvedValue({ auth: new FakeAuth() as never, config: testConfig });
    renderAt('/');

    // The first visit compiles the lazy chunks (home, shell): slower than the default wait.
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Jane Doe' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Gatehouse home' })).toBeInTheDocument();
    // The page names the tab in an effect, which React may run just after the heading shows.
    await waitFor(() => expect(document.title).toBe('Gatehouse'));
  });

  it('keeps the home and its loaded applications when the language changes', async () => {
    vi.mocked(loadSession).mockResolvedValue({ auth: new FakeAuth() as never, config: testConfig });
    const fetchMock = stubApi({
      'GET /api/v1/admin/applications/homeInfo': homeInfo([app({ id: 'crm', title: 'CRM' }), app({ id: 'erp', title: 'ERP' })]),
      'GET /api/v1/applications/status/portal': new Response('Running'),
    });
    const i18n = createPortalI18n({ language: 'en' });
    window.history.pushState(null, '', '/');
    render(<App i18n={i18n} />);
    const tile = await screen.findByRole('link', { name: /^CRM/ });

    await act(async () => {
      await changeLanguage(i18n, 'fr');
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Bienvenue, Jane Doe' })).toBeInTheDocument();
    expect(tile).toBeInTheDocument();
    expect(screen.queryByText('Redirection en cours…')).not.toBeInTheDocument();
    const homeInfoCalls = fetchMock.mock.calls.filter(([input]) => (input as Request).url.endsWith('/homeInfo'));
    expect(homeInfoCalls).toHaveLength(1);
  });

  it.each([
    ['/rights', 'Exercise your rights'],
    ['/rigths', 'Exercise your rights'],
    ['/disclaimers', 'Disclaimers'],
  ])('shows the page of %s in the shell', async (path, heading) => {
    vi.mocked(loadSession).mockResolvedValue({ auth: new FakeAuth() as never, config: testConfig });
    renderAt(path);

    // The first visit compiles the lazy chunks: slower than the default wait.
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Gatehouse home' })).toBeInTheDocument();
    expect(screen.queryByText('Page not found')).not.toBeInTheDocument();
  });

  it('sends /profile/rights (the profile area address) to /rights, keeping the query string', async () => {
    vi.mocked(loadSession).mockResolvedValue({ auth: new FakeAuth() as never, config: testConfig });
    renderAt('/profile/rights?x=1');

    expect(await screen.findByRole('heading', { level: 1, name: 'Exercise your rights' })).toBeInTheDocument();
    expect(`${window.location.pathname}${window.location.search}`).toBe('/rights?x=1');
  });

  it.each([
    ['/clients', 'My Clients', 'IdentityConsultant'],
    ['/clients', 'My Clients', 'Administrator'],
    ['/service-manager', 'Service Manager', 'ServiceManager'],
  ])('shows %s (%s) to a user holding %s', async (path, heading, role) => {
    vi.mocked(loadSession).mockResolvedValue({ auth: new FakeAuth(makeUser({ roles: [role] })) as never, config: testConfig });
    renderAt(path);

    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(window.location.pathname).toBe(path);
  });

  it.each([
    ['/clients', 'My Clients', ['ServiceManager'], 'My Clients is for identity consultants and administrators. An administrator can give you the role it needs.'],
    ['/service-manager', 'Service Manager', ['IdentityConsultant', 'Administrator'], 'Service Manager is for service managers. An administrator can give you the role it needs.'],
  ])('tells a user without the role of %s whom the page is for, with the way home', async (path, heading, roles, explanation) => {
    vi.mocked(loadSession).mockResolvedValue({ auth: new FakeAuth(makeUser({ roles })) as never, config: testConfig });
    renderAt(path);

    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.getByText('Not open to your roles')).toBeInTheDocument();
    expect(screen.getByText(explanation)).toBeInTheDocument();
    expect(window.location.pathname).toBe(path);

    fireEvent.click(screen.getByRole('button', { name: 'Back to home' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Jane Doe' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/');
  });

  it('sends an anonymous visitor of a signed-in page to the sign-in, to come back to it', async () => {
    const auth = new FakeAuth(null);
    vi.mocked(loadSession).mockResolvedValue({ auth: auth as never, config: testConfig });
    renderAt('/profile/rights?x=1');

    await vi.waitFor(() => expect(auth.signIn).toHaveBeenCalledWith('/profile/rights?x=1'));
    // Straight to the sign-in: the shell (and its API layer) is not even loaded for a visitor.
    expect(await screen.findByText(REDIRECTING)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('serves /home/companies/select in the shell, and sends a visitor to the sign-in to come back to it, query included', async () => {
    vi.mocked(loadSession).mockResolvedValue({ auth: new FakeAuth() as never, config: testConfig });
    const { unmount } = renderAt('/home/companies/select');
    expect(await screen.findByRole('heading', { level: 1, name: 'Change company' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Gatehouse home' })).toBeInTheDocument();
    unmount();

    const visitor = new FakeAuth(null);
    vi.mocked(loadSession).mockResolvedValue({ auth: visitor as never, config: testConfig });
    renderAt('/home/companies/select?returnUrl=%2Fextranet%2F');
    await vi.waitFor(() => expect(visitor.signIn).toHaveBeenCalledWith('/home/companies/select?returnUrl=%2Fextranet%2F'));
  });

  it('completes the sign-in on /auth/callback, then returns to where the user was', async () => {
    const auth = new CallbackAuth(makeUser());
    vi.mocked(loadSession).mockResolvedValue({ auth: auth as never, config: testConfig });
    renderAt('/auth/callback?code=abc&state=xyz');

    // The first visit compiles the lazy profile chunk: slower than the default wait.
    expect(await screen.findByRole('heading', { name: 'Your Profile' })).toBeInTheDocument();
    expect(auth.completeSignIn).toHaveBeenCalledTimes(1);
    expect(auth.completeSignIn).toHaveBeenCalledWith('http://localhost:3000/auth/callback?code=abc&state=xyz');
    expect(window.location.pathname).toBe('/profile');
  });

  it('shows the ERROR page when the sign-in cannot be completed', async () => {
    const auth = new CallbackAuth(null);
    auth.completeSignIn.mockRejectedValue(new Error('No matching state found in storage'));
    vi.mocked(loadSession).mockResolvedValue({ auth: auth as never, config: testConfig });
    renderAt('/auth/callback?code=def&state=uvw');

    expect(await screen.findByRole('heading', { name: 'ERROR' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('No matching state found in storage');
  });

  it('shows the ERROR page when the portal cannot start', async () => {
    vi.mocked(loadSession).mockRejectedValue(new Error('Service unavailable'));
    renderAt('/');

    expect(await screen.findByRole('heading', { name: 'ERROR' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Service unavailable');
    await act(async () => undefined);
  });
});
