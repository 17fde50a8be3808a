import { createApiDependencies, type Language } from '@gatehouse/frontend-shared';
import {
  FakeAuth as SharedFakeAuth,
  makeUser as makeTestUser,
  stubApi,
  type ApiRoutes,
  type TestUserOptions,
} from '@gatehouse/frontend-shared/testing';
import { render, type RenderResult } from '@testing-library/react';
import ConfigProvider from 'antd/es/config-provider';
import type { i18n as I18n } from 'i18next';
import type { User } from 'oidc-client-ts';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider as ReduxProvider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { meApi, type AdminMe } from './api/me';
import { App } from './App';
import { setApiDependencies } from './auth/api-dependencies';
import { AuthProvider } from './auth/auth-context';
import { createAdminI18n } from './i18n';
import { createAdminStore, type AdminStore } from './store';

export { jsonResponse, stubApi, type ApiRoutes, type Handler } from '@gatehouse/frontend-shared/testing';

export type Namespace = 'admin' | 'directory' | 'applicationRoles' | 'applications' | 'scim' | 'tenants' | 'permissions' | 'notifications' | 'logs' | 'webhooks';

/** The console's i18n with the namespaces a test needs already fetched, so it renders at once. */
export async function createTestI18n(language: Language = 'en', namespaces: Namespace[] = ['admin']): Promise<I18n> {
  const i18n = createAdminI18n({ language });
  await i18n.loadNamespaces(namespaces);
  return i18n;
}

/** An oidc-client-ts user of the console's client. */
export function makeUser(options: TestUserOptions = {}): User {
  return makeTestUser({ sub: 'admin-1', aud: 'admin-console' }, options);
}

/** The session of a test: its user is set by the test, and what the UI asks of it is recorded. */
export class FakeAuth extends SharedFakeAuth {
  completeSignIn = vi.fn(async (_url?: string) => '/');

  constructor(user: User | null = makeUser()) {
    super(user);
  }
}

/** `GET /me` of an administrator named Ada Admin, with the given roles. */
export function adminMe(roles: string[] = ['Administrator'], overrides: Partial<AdminMe> = {}): AdminMe {
  return {
    id: 'admin-1',
    userName: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Admin',
    email: 'ada@example.com',
    language: 'en',
    roles,
    ...overrides,
  };
}

/** A store whose calls carry the fake session's token and `language`. */
export function createTestStore(auth: FakeAuth, language = 'en'): AdminStore {
  const dependencies = createApiDependencies(auth, () => language);
  // Downloads and uploads read the same session as the store.
  setApiDependencies(dependencies);
  return createAdminStore(dependencies);
}

export interface RenderAppOptions {
  /** Path inside the console, e.g. '/users?x=1' (the /admin prefix is added). */
  path?: string;
  /** Roles `GET /me` answers with (default Administrator); ignored when `api` answers /me. */
  roles?: string[];
  me?: Partial<AdminMe>;
  /** More API answers (see {@link stubApi}); they win over the defaults. */
  api?: ApiRoutes;
  language?: Language;
  namespaces?: Namespace[];
  /** Signed in by default; pass `new FakeAuth(null)` for a visitor. */
  auth?: FakeAuth;
  /** The splash's delay; 0 unless a test is about it. */
  delayMs?: number;
  /** Where the delay starts (a `performance.now()` reading): the render unless a test says. */
  delayFrom?: number;
}

/** The route chunks the app loads lazily, fetched before a render so no wait runs out on them. */
function preloadRoutes(namespaces: Namespace[]) {
  return Promise.all([
    import('./shell/SignedInApp'),
    import('./auth/AuthCallbackPage'),
    import('./dashboard/DashboardPage'),
    namespaces.includes('directory') ? import('./features/directory') : undefined,
    namespaces.includes('applications') ? import('./features/applications/ApplicationsPage') : undefined,
    namespaces.includes('applications') ? import('./features/applications/ApplicationDetailPage') : undefined,
    namespaces.includes('tenants') ? import('./features/tenants/TenantsPage') : undefined,
    namespaces.includes('tenants') ? import('./features/tenants/TenantDetailPage') : undefined,
    namespaces.includes('permissions') ? import('./features/permissions/PermissionsPage') : undefined,
    namespaces.includes('permissions') ? import('./features/permissions/GroupPermissionsPage') : undefined,
    namespaces.includes('permissions') ? import('./features/permissions/UserPermissionsPage') : undefined,
    namespaces.includes('permissions') ? import('./features/mfa/MfaConfigurationPage') : undefined,
    namespaces.includes('logs') ? import('./features/logs/LogsPage') : undefined,
    namespaces.includes('webhooks') ? import('./features/webhooks/WebhooksPage') : undefined,
    namespaces.includes('webhooks') ? import('./features/webhooks/WebhookDetailPage') : undefined,
  ]);
}

/**
 * Renders the whole console at `/admin${path}` (real routes, entry rule and layout) with a fake
 * session and a stubbed API. `leave` records the redirections to the identity URL. Loads the
 * 'admin' phrases only: pass `namespaces: ['admin', 'directory']` to visit a directory page.
 */
export async function renderApp(options: RenderAppOptions = {}) {
  const auth = options.auth ?? new FakeAuth();
  const i18n = await createTestI18n(options.language, options.namespaces);
  await preloadRoutes(options.namespaces ?? ['admin']);
  const fetchMock = stubApi({
    'GET /api/v1/admin/me': adminMe(options.roles, options.me),
    'GET /api/v1/admin/dashboard/base': { usersCount: 0, groupsCount: 0, appsCount: 0, areasCount: 0, tenantsCount: 0 },
    // Every page's notifications button: nothing new, nothing running.
    'GET /api/v1/admin/notifications/active': { items: [], count: 0, unread: 0 },
    'GET /api/v1/admin/tasks/active': { items: [], count: 0 },
    // The dashboard's usage reports, empty: nothing to draw.
    'GET /api/v1/admin/dashboard/loginLastHours': [],
    'GET /api/v1/admin/dashboard/adminPerApp': [],
    'GET /api/v1/admin/dashboard/globalAdminPerAreas': [],
    'GET /api/v1/admin/dashboard/connectedPerApp': [],
    ...options.api,
  });
  const leave = vi.fn((_url: string) => undefined);
  const load = async () => ({ auth });
  window.history.pushState(null, '', `/admin${options.path ?? '/'}`);
  const result = render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <App i18n={i18n} load={load} loadForCallback={load} delayMs={options.delayMs ?? 0} delayFrom={options.delayFrom ?? performance.now()} leave={leave} />
    </ConfigProvider>,
  );
  return { ...result, auth, i18n, fetchMock, leave };
}

export interface RenderPageOptions extends Omit<RenderAppOptions, 'path' | 'delayMs'> {
  /** The URL inside the console, e.g. '/users/42'. */
  route?: string;
  /** The route pattern the page is mounted at, e.g. '/users/:id', so `useParams` works. */
  pattern?: string;
  /** Navigation state of the entry (e.g. breadcrumbs from a list). */
  state?: unknown;
  /** False when `ui` brings its own router (several history entries, a basename). */
  router?: boolean;
}

/**
 * Renders one page with the console's providers (i18n, antd without motion, session, store with
 * `/me` already answered, router) and a stubbed API. Loads the 'admin' and 'directory' phrases
 * unless told otherwise.
 */
export async function renderPage(
  ui: ReactElement,
  options: RenderPageOptions = {},
): Promise<RenderResult & { auth: FakeAuth; store: AdminStore; i18n: I18n; fetchMock: ReturnType<typeof stubApi> }> {
  const auth = options.auth ?? new FakeAuth();
  const i18n = await createTestI18n(options.language, options.namespaces ?? ['admin', 'directory']);
  const me = adminMe(options.roles, options.me);
  const fetchMock = stubApi({ 'GET /api/v1/admin/me': me, ...options.api });
  const store = createTestStore(auth, options.language ?? 'en');
  await store.dispatch(meApi.util.upsertQueryData('me', undefined, me));
  const route = options.route ?? '/';
  const [pathname, search] = route.split('?');
  const routed =
    options.router === false ? (
      ui
    ) : (
      <MemoryRouter initialEntries={[{ pathname, search: search ? `?${search}` : '', state: options.state }]}>
        {options.pattern ? (
          <Routes>
            <Route path={options.pattern} element={ui} />
            <Route path="*" element={<LocationProbe />} />
          </Routes>
        ) : (
          ui
        )}
      </MemoryRouter>
    );
  const result = render(
    <I18nextProvider i18n={i18n}>
      <ConfigProvider theme={{ token: { motion: false } }}>
        <AuthProvider auth={auth}>
          <ReduxProvider store={store}>{routed}</ReduxProvider>
        </AuthProvider>
      </ConfigProvider>
    </I18nextProvider>,
  );
  return { ...result, auth, store, i18n, fetchMock };
}

/** Where a page navigated to when it left its route: `getByTestId('location')` reads '/users/42'. */
function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}
