import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FakeAuth, jsonResponse, renderApp } from './test-utils';
import { ENTRY_DELAY_MS } from './auth/RequireAdmin';
import { ENTERED_AT_KEY } from './auth/entry-time';

/** The paths of the requests the console sent. */
function askedPaths(fetchMock: { mock: { calls: unknown[][] } }): string[] {
  return fetchMock.mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://localhost').pathname);
}

describe('entry rule', () => {
  it('sends a signed-in user whose roles open no page of the console to the portal, saying why', async () => {
    const { leave } = await renderApp({ roles: ['IdentityConsultant', 'ServiceManager', 'User'] });

    await waitFor(() => expect(leave).toHaveBeenCalledWith('/'));
    expect(screen.getByRole('status')).toHaveTextContent('Your roles open no page of the administration console. Redirecting to the portal…');
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).not.toBeInTheDocument();
  });

  it('lets a delegated administrator in, with the tiles of the pages their roles open and no counts the API keeps from them', async () => {
    const { leave, fetchMock } = await renderApp({ roles: ['AreaAdministrator', 'Manager'] });

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Admin' })).toBeInTheDocument();
    expect(leave).not.toHaveBeenCalled();
    const summary = within(screen.getByRole('region', { name: 'Summary' }));
    expect(summary.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/admin/users', '/admin/groups', '/admin/areas', '/admin/tenants']);
    const others = within(screen.getByRole('region', { name: 'Other screens' }));
    expect(others.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/admin/permissions', '/admin/logs']);
    expect(screen.queryByRole('button', { name: 'Background jobs' })).not.toBeInTheDocument();
    const asked = askedPaths(fetchMock);
    expect(asked).not.toContain('/api/v1/admin/dashboard/base');
    expect(asked).not.toContain('/api/v1/admin/dashboard/loginLastHours');
  });

  it('sends the user away when the API refuses them /me', async () => {
    const { leave } = await renderApp({
      api: { 'GET /api/v1/admin/me': jsonResponse({ code: 'errors.forbidden', message: 'Forbidden' }, 403) },
    });

    await waitFor(() => expect(leave).toHaveBeenCalledWith('/'));
  });

  /** The test's own clock (timers, Date and performance.now()), which also moves on by itself so that renders and waits work as usual. */
  const ownClock = () => vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
  /** Moves the clock to `ms` before the end of a splash that started at `from` and lasts `delayMs`. */
  const toBeforeTheEnd = (from: number, delayMs: number, ms: number) => act(() => vi.advanceTimersByTimeAsync(Math.max(0, from + delayMs - ms - performance.now())));

  it('shows an Administrator the dashboard after the splash with the slogan', async () => {
    ownClock();
    try {
      // Longer than the spec's second, so that a slow first render cannot use it up before the checks.
      const from = performance.now();
      const { leave } = await renderApp({ roles: ['Administrator'], delayMs: 3000, delayFrom: from });

      await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Identity you can trust.'));
      expect(screen.getByRole('status')).toHaveTextContent('Starting the administration console…');
      await toBeforeTheEnd(from, 3000, 200);
      expect(screen.queryByRole('heading', { name: 'Welcome, Ada Admin' })).not.toBeInTheDocument();

      await act(() => vi.advanceTimersByTimeAsync(300));
      expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Ada Admin' })).toBeInTheDocument();
      expect(leave).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts the splash from the page’s load: back from a sign-in that took a while, the rest of it only', async () => {
    ownClock();
    try {
      // The page loaded 1.5 s ago (completing the sign-in took that long): 1.5 s of a 3-second splash remain.
      const from = performance.now() - 1500;
      await renderApp({ roles: ['Administrator'], delayMs: 3000, delayFrom: from });

      await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Identity you can trust.'));
      await toBeforeTheEnd(from, 3000, 200);
      expect(screen.queryByRole('heading', { name: 'Welcome, Ada Admin' })).not.toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(300));
      // Counted from the render instead, 1.5 s would remain here.
      expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Ada Admin' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts the splash from the first request for the console when a sign-in came in between: back from it, no splash is left', async () => {
    ownClock();
    try {
      // The person asked for the console 2 minutes ago; the sign-in took them away and back.
      sessionStorage.setItem(ENTERED_AT_KEY, String(Date.now() - 120_000));
      // A minute's splash: counted from this page's load, it would outlast the test's wait.
      await renderApp({ roles: ['Administrator'], delayMs: 60_000, delayFrom: performance.now() });

      expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Admin' })).toBeInTheDocument();
      // Used once: the next visit gets its own splash.
      expect(sessionStorage.getItem(ENTERED_AT_KEY)).toBeNull();
    } finally {
      vi.useRealTimers();
      sessionStorage.clear();
    }
  });

  it('notes when a visitor first asked for the console before sending them to the sign-in, and keeps the first note', async () => {
    try {
      const auth = new FakeAuth(null);
      const before = Date.now();
      await renderApp({ auth });

      await waitFor(() => expect(auth.signIn).toHaveBeenCalled());
      const noted = Number(sessionStorage.getItem(ENTERED_AT_KEY));
      expect(noted).toBeGreaterThanOrEqual(before);
      expect(noted).toBeLessThanOrEqual(Date.now());
    } finally {
      sessionStorage.clear();
    }
  });

  it('asks for the disclaimer gate and the dashboard’s counts while the splash shows, not after it', async () => {
    const { fetchMock } = await renderApp({ roles: ['Administrator'], delayMs: 60_000 });

    await waitFor(() => expect(askedPaths(fetchMock)).toContain('/api/v1/admin/dashboard/base'));
    expect(askedPaths(fetchMock).some((asked) => asked.startsWith('/api/v1/profile/disclaimer/'))).toBe(true);
    expect(screen.getByRole('status')).toHaveTextContent('Starting the administration console…');
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
  });

  it('waits the spec’s one second by default', () => {
    expect(ENTRY_DELAY_MS).toBe(1000);
  });

  it('shows the French slogan to a French user', async () => {
    await renderApp({ language: 'fr', delayMs: 60_000 });

    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent("L'identité, en toute confiance."));
    expect(screen.getByRole('status')).toHaveTextContent("Démarrage de la console d'administration…");
  });

  it('sends a visitor to the sign-in, to come back to the page asked for', async () => {
    const auth = new FakeAuth(null);
    const { fetchMock } = await renderApp({ auth, path: '/users?q=ada#top' });

    await waitFor(() => expect(auth.signIn).toHaveBeenCalledWith('/users?q=ada#top'));
    expect(screen.getByRole('status')).toHaveTextContent('Redirecting to the sign-in page…');
    // Nobody to ask /me about.
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('does not sign in again by itself after the user signed out in another tab', async () => {
    const auth = new FakeAuth(null);
    auth.ended = 'closed-elsewhere';
    await renderApp({ auth });

    const button = await screen.findByRole('button', { name: 'Sign in' });
    expect(screen.getByText('You signed out in another tab.')).toBeInTheDocument();
    expect(auth.signIn).not.toHaveBeenCalled();
    fireEvent.click(button);
    expect(auth.signIn).toHaveBeenCalledWith('/');
  });

  it('completes the sign-in on /admin/auth/callback and returns to the page', async () => {
    const auth = new FakeAuth();
    auth.completeSignIn.mockResolvedValue('/groups');
    await renderApp({ auth, path: '/auth/callback?code=c&state=s' });

    await waitFor(() => expect(window.location.pathname).toBe('/admin/groups'));
    expect(auth.completeSignIn).toHaveBeenCalledWith('http://localhost:3000/admin/auth/callback?code=c&state=s');
  });

  it('shows the error banner and a retry when /me fails', async () => {
    let fail = true;
    await renderApp({
      api: {
        'GET /api/v1/admin/me': () =>
          fail
            ? jsonResponse({ code: 'errors.internal', message: 'Le service est indisponible', errors: [], requestId: 'r1' }, 500)
            : jsonResponse({ id: '1', userName: 'ada', firstName: null, lastName: null, email: null, roles: ['God'] }),
      },
    });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An error occurred');
    expect(alert).toHaveTextContent('Le service est indisponible');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, ada' })).toBeInTheDocument();
  });
});

describe('routes', () => {
  it.each([
    ['/users', 'Users'],
    ['/groups', 'Groups'],
    ['/areas', 'Areas'],
  ])('shows the directory page at %s inside the layout', async (path, title) => {
    await renderApp({ path, namespaces: ['admin', 'directory'] });

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    expect(screen.queryByText('Not available yet')).not.toBeInTheDocument();
    // The first visit transforms the whole directory feature under jsdom.
  }, 40_000);

  it.each([
    ['/applications', 'Applications'],
    ['/applications/crm', 'CRM'],
    ['/applications/crm/users', 'CRM'],
  ])('shows the applications page at %s inside the layout', async (path, title) => {
    const crm = {
      id: 'crm', name: 'crm', displayName: 'CRM', description: null, type: 'public', status: 'Running', prerelease: false, hideInUserList: false,
      privateUrl: 'https://crm.example.com/', publicUrl: null, modifiedOn: '2026-03-04T10:00:00.000Z', userIsOwner: false, system: false,
      redirectUris: ['https://crm.example.com/cb'], postLogoutRedirectUris: [], icon: null, hasIconImage: false, hasSecret: false, owners: [],
    };
    await renderApp({
      path,
      namespaces: ['admin', 'directory', 'applications'],
      api: {
        'GET /api/v1/admin/applications': { items: [crm], count: 1 },
        'GET /api/v1/admin/applications/crm': crm,
        'GET /api/v1/admin/app/crm/roles': { items: [], count: 0 },
        'GET /api/v1/admin/applications/crm/users': { items: [], count: 0 },
      },
    });

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    expect(screen.queryByText('Not available yet')).not.toBeInTheDocument();
  }, 40_000);

  it.each([
    ['/permissions', 'Permissions'],
    ['/permissions?tab=groups', 'Permissions'],
    ['/permissions/g1', 'Group Details - Sales'],
    ['/permissions/users/check', 'User Permissions'],
    ['/twomodeauth', 'MFA Configuration'],
  ])('shows the permissions page at %s inside the layout', async (path, title) => {
    const sales = { id: 'g1', name: 'Sales', description: null, areaName: 'North', membersCount: 0, tenants: [] };
    await renderApp({
      path,
      namespaces: ['admin', 'directory', 'permissions'],
      api: {
        'GET /api/v1/admin/tenantIdentities': { items: [], count: 0 },
        'GET /api/v1/admin/tenantIdentities/groups': { items: [sales], count: 1 },
        'GET /api/v1/admin/tenantIdentities/groups/g1': sales,
        'GET /api/v1/admin/tenantIdentities/groups/g1/users': { items: [], count: 0 },
        'GET /api/v1/admin/tenants': { items: [], count: 0 },
        'GET /api/v1/admin/users': { items: [], count: 0 },
        'GET /api/v1/admin/areas': { items: [], count: 0 },
      },
    });

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    const menu = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(menu.getByRole('link', { name: path === '/twomodeauth' ? 'MFA Configuration' : 'Permissions' }).closest('li')).toHaveClass('ant-menu-item-selected');
    expect(screen.queryByText('Not available yet')).not.toBeInTheDocument();
  }, 40_000);

  it.each([
    ['/tenants', 'Tenants'],
    ['/tenants/t1', 'Acme'],
  ])('shows the tenants page at %s inside the layout', async (path, title) => {
    const acme = {
      id: 't1', title: 'Acme', areaId: 'a1', areaName: 'North', parentId: null, parentTitle: null, taxNumber: null, viesNumber: null, groupAlias: null,
      auto: 'Manual', isUserCustomized: false, requiredTwoModeAuthentification: false, childrenCount: 0, modifiedOn: '2026-03-04T10:00:00.000Z',
    };
    await renderApp({
      path,
      namespaces: ['admin', 'directory', 'tenants'],
      api: {
        'GET /api/v1/admin/tenants': { items: [acme], count: 1 },
        'GET /api/v1/admin/tenants/t1': { ...acme, hierarchyItems: [], tree: { id: 't1', title: 'Acme', areaId: 'a1', children: [] } },
        'GET /api/v1/admin/areas': { items: [], count: 0 },
      },
    });

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    const menu = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(menu.getByRole('link', { name: 'Tenants' }).closest('li')).toHaveClass('ant-menu-item-selected');
    expect(screen.queryByText('Not available yet')).not.toBeInTheDocument();
  }, 40_000);

  it('shows the Logs page at /logs inside the layout, on its first tab', async () => {
    await renderApp({
      path: '/logs',
      namespaces: ['admin', 'directory', 'logs'],
      api: { 'GET /api/v1/admin/logs/authenticationlogs': { items: [], count: 0 } },
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Logs' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Authentication Logs', selected: true })).toBeInTheDocument();
    expect(screen.queryByText('Not available yet')).not.toBeInTheDocument();
  }, 40_000);

  it('shows the Logs page in French', async () => {
    await renderApp({
      path: '/logs',
      language: 'fr',
      namespaces: ['admin', 'directory', 'logs'],
      api: { 'GET /api/v1/admin/logs/authenticationlogs': { items: [], count: 0 } },
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Journaux' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Journaux d’authentification' })).toBeInTheDocument();
  }, 40_000);

  it.each(['/securityConfig'])('opens %s to God', async (path) => {
    await renderApp({ path, roles: ['God'] });

    expect(await screen.findByRole('heading', { level: 1, name: 'Security Configuration' })).toBeInTheDocument();
    expect(screen.queryByText('Not available yet')).not.toBeInTheDocument();
  });

  it.each([
    ['/securityConfig', 'Administrator', 'Security Configuration', '/api/v1/admin/securityConfig'],
    ['/control-pats', 'Administrator', 'PATS Control', '/api/v1/keys'],
    ['/users', 'Manager', 'Users', '/api/v1/admin/users'],
    ['/users/42', 'Manager', 'Users', '/api/v1/admin/users'],
    ['/applications', 'AreaAdministrator', 'Applications', '/api/v1/admin/applications'],
    ['/pats', 'TenantAdministrator', 'Personal Access Tokens', '/api/v1/keys'],
    ['/inspector', 'Manager', 'Inspector', '/api/v1/admin/inspector'],
  ])('tells whoever follows a link to %s as %s that the page is not open to their roles, with the way back', async (path, role, screenName, pageApi) => {
    const { fetchMock } = await renderApp({ path, roles: [role] });

    expect(await screen.findByText('Not open to your roles')).toBeInTheDocument();
    expect(screen.getByText(`Your roles do not open the ${screenName} page. An administrator can give you the role it needs.`)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: screenName })).toBeInTheDocument();
    // Nothing asked of the page's own calls.
    expect(askedPaths(fetchMock).filter((asked) => asked.startsWith(pageApi))).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Back to the dashboard' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Admin' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/admin');
  });

  it.each(['/nowhere', '/applications/crm/roles/7/extra', '/users/42/more'])(
    'shows the not-found page in the user’s language at /admin%s, signed in or not',
    async (path) => {
      const auth = new FakeAuth(null);
      await renderApp({ path, auth });

      expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
      expect(auth.signIn).not.toHaveBeenCalled();
    },
  );

  it('keeps the layout around every page and marks the current menu entry', async () => {
    await renderApp({ path: '/logs', namespaces: ['admin', 'directory', 'logs'], api: { 'GET /api/v1/admin/logs/authenticationlogs': { items: [], count: 0 } } });

    await screen.findByRole('heading', { level: 1, name: 'Logs' });
    const menu = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    const logs = menu.getByRole('link', { name: 'Logs' }).closest('li');
    expect(logs).toHaveClass('ant-menu-item-selected');
  });
});
