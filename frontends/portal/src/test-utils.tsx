import { DEFAULT_PASSWORD_POLICY, createApiDependencies, type Language, type OidcAuth as PortalAuth } from '@gatehouse/frontend-shared';
import { FakeAuth as SharedFakeAuth, makeUser as makeTestUser, type TestUserOptions } from '@gatehouse/frontend-shared/testing';
import { render, type RenderResult } from '@testing-library/react';
import ConfigProvider from 'antd/es/config-provider';
import type { i18n as I18n } from 'i18next';
import type { User } from 'oidc-client-ts';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider as ReduxProvider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import type { Application, HomeInfo, MyProfile } from './api/portal-api';
import type { PortalConfig } from './api/portal-config';
import { AuthProvider } from './auth/auth-context';
import type { PortalProfile } from './auth/profile';
import { createPortalI18n } from './i18n';
import { createPortalStore, type PortalStore } from './store/store';

export { jsonResponse, stubApi } from '@gatehouse/frontend-shared/testing';

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
  adminScopes: 'openid profile email roles admin-api',
  environment: 'test',
  microsoftSignIn: false,
  groupDomains: [],
  policy: { ...DEFAULT_PASSWORD_POLICY },
  links: {},
  apps: { portal: 'http://localhost:3000/', admin: 'http://localhost:3000/admin' },
};

/** A user of the portal's client, named Jane Doe (jane@example.com) unless `profile` says otherwise. */
export function makeUser(profile: Partial<PortalProfile> = {}, options: TestUserOptions = {}): User {
  return makeTestUser({ name: 'Jane Doe', email: 'jane@example.com', ...profile }, options);
}

/** A PortalAuth whose user a test sets, recording what the UI asks of it; its session lasts a day. */
export class FakeAuth extends SharedFakeAuth {
  constructor(user: User | null = makeUser()) {
    super(user, { expiresAt: Date.now() + 24 * 60 * 60 * 1000 });
  }
}

export function createTestStore(auth: PortalAuth, language = 'en'): PortalStore {
  return createPortalStore(createApiDependencies(auth, () => language));
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

/** The answer of `GET /api/v1/profile` for Jane Doe, without roles or company unless told. */
export function myProfile(overrides: Partial<MyProfile> = {}): MyProfile {
  return {
    id: 'u-1',
    userName: 'jane@example.com',
    email: 'jane@example.com',
    firstName: 'Jane',
    lastName: 'Doe',
    language: 'en',
    areaName: 'Default',
    avatarUrl: '/api/v1/avatar/abc?size=180',
    roles: [],
    currentCompany: null,
    companyCount: 0,
    ...overrides,
  };
}
