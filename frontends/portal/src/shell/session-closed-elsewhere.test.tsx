import { AuthService, SIGNED_OUT_AT_KEY, createTokenLock, type OidcUserManager } from '@gatehouse/frontend-shared';
import { fireEvent, render, screen, within } from '@testing-library/react';
import ConfigProvider from 'antd/es/config-provider';
import type { i18n as I18n } from 'i18next';
import type { User } from 'oidc-client-ts';
import { I18nextProvider } from 'react-i18next';
import { Provider as ReduxProvider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../auth/auth-context';
import { createTestI18n, createTestStore, homeInfo, jsonResponse, makeUser, stubApi, testConfig } from '../test-utils';
import { ShellLayout } from './ShellLayout';

/** oidc-client-ts as this tab sees it: the user in the storage every tab shares. */
function fakeUserManager() {
  let stored: User | null = makeUser();
  const manager = {
    getUser: vi.fn(async () => stored),
    removeUser: vi.fn(async () => {
      stored = null;
    }),
    signinRedirect: vi.fn(async (_args?: { state?: unknown }) => undefined),
    signinCallback: vi.fn(async (_url?: string): Promise<User | undefined> => undefined),
    signinSilent: vi.fn(async (): Promise<User | null> => null),
    signoutRedirect: vi.fn(async () => undefined),
    dpopProof: vi.fn(async (url: string, user: User, method?: string): Promise<string | undefined> => `proof ${method} ${url} ${user.access_token}`),
    events: {
      addAccessTokenExpiring: () => () => undefined,
      addAccessTokenExpired: () => () => undefined,
      addUserLoaded: () => () => undefined,
      addUserUnloaded: () => () => undefined,
    },
    store(user: User | null) {
      stored = user;
    },
  } satisfies OidcUserManager & { store(user: User | null): void };
  return manager;
}

let i18n: I18n;
let auth: AuthService;
let manager: ReturnType<typeof fakeUserManager>;
let fetchMock: ReturnType<typeof stubApi>;

beforeEach(async () => {
  i18n = await createTestI18n('en');
  fetchMock = stubApi({
    'GET /api/v1/applications/status/portal': new Response('Running'),
    'GET /api/v1/admin/applications/homeInfo': homeInfo([]),
    'GET /api/v1/profile/resetPassword/jane%40example.com': jsonResponse({ success: true, message: 'Sent' }),
  });
  manager = fakeUserManager();
  // No wait before the silent sign-in (the real one gives the other tab's sign-out two seconds).
  auth = new AuthService({ userManager: manager, lock: createTokenLock(undefined), storage: localStorage, window, signOutSettleMs: 0 });
  await auth.initialize();
});

afterEach(() => {
  auth.dispose();
});

function renderShell() {
  render(
    <I18nextProvider i18n={i18n}>
      <ConfigProvider theme={{ token: { motion: false } }}>
        <AuthProvider auth={auth} config={testConfig}>
          <ReduxProvider store={createTestStore(auth)}>
            <MemoryRouter>
              <Routes>
                <Route element={<ShellLayout />}>
                  <Route index element={<p>Home content</p>} />
                </Route>
              </Routes>
            </MemoryRouter>
          </ReduxProvider>
        </AuthProvider>
      </ConfigProvider>
    </I18nextProvider>,
  );
}

/** What this tab sees when the user clicks "Close session" in another one. */
function closeSessionInAnotherTab() {
  localStorage.setItem(SIGNED_OUT_AT_KEY, String(Date.now()));
  manager.store(null);
  window.dispatchEvent(new StorageEvent('storage', { key: 'oidc.user:http://localhost:3000/oidc:portal' }));
}

describe('a session closed in another tab', () => {
  it('is signed in again silently while the provider session is alive: no notice, and the tab keeps working', async () => {
    manager.signinSilent.mockImplementationOnce(async () => {
      const user = makeUser({}, { accessToken: 'access-2' });
      manager.store(user);
      return user;
    });
    renderShell();

    closeSessionInAnotherTab();

    await vi.waitFor(() => expect(auth.getUser()?.access_token).toBe('access-2'));
    expect(manager.signinSilent).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Home content')).toBeInTheDocument();
    expect(screen.queryByText('Your session was closed in another tab.')).not.toBeInTheDocument();
    expect(manager.signinRedirect).not.toHaveBeenCalled();

    // The next call carries the new tokens.
    fireEvent.click(screen.getByRole('button', { name: 'Account of Jane Doe' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Jane Doe' })).getByRole('button', { name: 'Change password' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Change your password?' })).getByRole('button', { name: 'Ok' }));
    expect(await screen.findByRole('dialog', { name: 'Change password request Success' })).toBeInTheDocument();
    const request = fetchMock.mock.calls.map(([input]) => input as Request).find((r) => r.url.includes('resetPassword'));
    expect(request?.headers.get('Authorization')).toBe('DPoP access-2');
    expect(request?.headers.get('DPoP')).toBe('proof GET http://localhost:3000/api/v1/profile/resetPassword/jane%40example.com access-2');
  });

  it('says the session was closed in another tab when the silent sign-in fails, without signing in by itself', async () => {
    manager.signinSilent.mockRejectedValueOnce(Object.assign(new Error('End-User authentication is required'), { error: 'login_required' }));
    renderShell();
    expect(screen.getByText('Home content')).toBeInTheDocument();

    closeSessionInAnotherTab();

    const main = screen.getByRole('main');
    expect(await within(main).findByText('Your session was closed in another tab.')).toBeInTheDocument();
    expect(manager.signinSilent).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Home content')).not.toBeInTheDocument();
    expect(manager.signinRedirect).not.toHaveBeenCalled();
  });
});
