import type { Language } from '@gatehouse/frontend-shared';
import { render, type RenderResult } from '@testing-library/react';
import ConfigProvider from 'antd/es/config-provider';
import type { i18n as I18n } from 'i18next';
import { User } from 'oidc-client-ts';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider as ReduxProvider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import type { Application, HomeInfo } from './api/portal-api';
import type { PortalConfig } from './api/portal-config';
import { AuthProvider } from './auth/auth-context';
import type { PortalAuth, SessionEnd } from './auth/auth-service';
import type { PortalProfile } from './auth/profile';
import { UnauthorizedRetry } from './auth/unauthorized-retry';
import { createPortalI18n } from './i18n';
import { createPortalStore, type PortalStore } from './store/store';

/** The portal's i18n with its namespaces already fetched, so components render at once. */
export async function createTestI18n(language: Language = 'en'): Promise<I18n> {
  const i18n = createPortalI18n({ language });
  await i18n.loadNamespaces(['portal', 'account']);
  return i18n;
}

export const testConfig: PortalConfig = {
  serviceUrl: 'http://localhost:3000',
  identityServerUrl: 'http://localhost:3000',
  authority: 'http://localhost:3000/oidc',
  clientId: 'portal',
  adminClientId: 'admin-console',
  scopes: 'openid profile email roles offline_access',
  environment: 'test',
  apps: { portal: 'http://localhost:3000/', admin: 'http://localhost:3000/admin' },
};

export interface MakeUserOptions {
  accessToken?: string;
  refreshToken?: string;
  /** Seconds the access token has left. */
  expiresIn?: number;
  /** The state passed to signinRedirect. */
  state?: unknown;
}

export function makeUser(profile: Partial<PortalProfile> = {}, options: MakeUserOptions = {}): User {
  return new User({
    userState: options.state,
    id_token: 'id-token',
    access_token: options.accessToken ?? 'access-1',
    refresh_token: options.refreshToken ?? 'refresh-1',
    token_type: 'Bearer',
    scope: testConfig.scopes,
    expires_at: Math.floor(Date.now() / 1000) + (options.expiresIn ?? 3600),
    profile: {
      sub: 'user-1',
      iss: testConfig.authority,
      aud: 'portal',
      exp: 0,
      iat: 0,
      given_name: 'Jane',
      family_name: 'Doe',
      name: 'Jane Doe',
      email: 'jane@example.com',
      ...profile,
    } as User['profile'],
  });
}

/** A PortalAuth whose user a test sets, recording what the UI asks of it. */
export class FakeAuth implements PortalAuth {
  private listeners = new Set<() => void>();
  signIn = vi.fn(async (_returnTo: string) => undefined);
  signOut = vi.fn(async () => undefined);
  renew = vi.fn(async (_options?: { rejectedToken?: string }) => this.user);
  expiresAt: number | undefined = Date.now() + 24 * 60 * 60 * 1000;
  ended: SessionEnd | undefined;

  constructor(private user: User | null = makeUser()) {}

  getUser = () => this.user;
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  accessToken = async () => this.user?.access_token;
  sessionExpiresAt = () => this.expiresAt;
  sessionEnd = () => this.ended;

  setUser(user: User | null): void {
    this.user = user;
    for (const listener of this.listeners) listener();
  }
}

export function createTestStore(auth: PortalAuth, language = 'en'): PortalStore {
  return createPortalStore({
    accessToken: () => auth.accessToken(),
    unauthorized: new UnauthorizedRetry((rejectedToken) => auth.renew({ rejectedToken })),
    language: () => language,
  });
}

export interface RenderSignedInOptions {
  i18n: I18n;
  auth?: FakeAuth;
  config?: PortalConfig;
  route?: string;
}

/** Renders a signed-in component with its providers (i18n, auth, store, router). */
export function renderSignedIn(ui: ReactElement, options: RenderSignedInOptions): RenderResult & { auth: FakeAuth; store: PortalStore } {
  const auth = options.auth ?? new FakeAuth();
  const store = createTestStore(auth, options.i18n.language);
  // Without motion antd removes closed dialogs at once: jsdom never ends a CSS animation.
  const result = render(
    <I18nextProvider i18n={options.i18n}>
      <ConfigProvider theme={{ token: { motion: false } }}>
        <AuthProvider auth={auth} config={options.config ?? testConfig}>
          <ReduxProvider store={store}>
            <MemoryRouter initialEntries={[options.route ?? '/']}>{ui}</MemoryRouter>
          </ReduxProvider>
        </AuthProvider>
      </ConfigProvider>
    </I18nextProvider>,
  );
  return { ...result, auth, store };
}

export function app(overrides: Partial<Application> & Pick<Application, 'id' | 'title'>): Application {
  return {
    description: `${overrides.title} description`,
    publicUrl: null,
    privateUrl: `https://${overrides.id}.example.com/`,
    prerelease: false,
    hasAccess: true,
    isUserFavorite: false,
    status: 'Running',
    ...overrides,
  };
}

export function homeInfo(items: Application[], clientPortalAppId: string | null = null): HomeInfo {
  return { applications: { items, count: items.length }, clientPortalAppId };
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * Stubs fetch with answers by path ('GET /api/v1/…'); anything else is a 404. Returns the mock,
 * whose calls hold the Requests.
 */
export function stubApi(routes: Record<string, Handler | Response | unknown>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init);
    const { pathname } = new URL(request.url);
    const route = routes[`${request.method} ${pathname}`];
    if (route === undefined) return jsonResponse({ code: 'errors.not_found', message: 'Not found' }, 404);
    if (typeof route === 'function') return (route as Handler)(request);
    if (route instanceof Response) return route.clone();
    return jsonResponse(route);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
