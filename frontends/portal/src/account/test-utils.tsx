import { resources as sharedResources, SUPPORTED_LANGUAGES, type Language } from '@gatehouse/frontend-shared';
import { jsonResponse } from '@gatehouse/frontend-shared/testing';
import { render } from '@testing-library/react';
import ConfigProvider from 'antd/es/config-provider';
import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { accountResources } from '../i18n/account';
import { AccountRoutes } from './AccountRoutes';

/** An i18next instance as the portal builds it: the shared phrases plus the 'account' namespace. */
export function createTestI18n(language: Language = 'en'): I18n {
  const resources: Resource = {};
  for (const lng of SUPPORTED_LANGUAGES) {
    resources[lng] = { translation: sharedResources[lng].translation, account: accountResources[lng] };
  }
  const instance = i18next.createInstance();
  instance.use(initReactI18next);
  void instance.init({
    resources,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: SUPPORTED_LANGUAGES,
    load: 'currentOnly',
    ns: ['translation', 'account'],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}

/** Renders the account routes at `/account/<path>`, as the portal mounts them. */
export function renderAccount(path: string, options: { language?: Language } = {}) {
  const { language = 'en' } = options;
  const i18n = createTestI18n(language);
  const view = render(
    <I18nextProvider i18n={i18n}>
      {/* jsdom fires no transitionend: without motion, closed dialogs leave the DOM at once. */}
      <ConfigProvider theme={{ token: { motion: false } }}>
        <MemoryRouter initialEntries={[`/account/${path}`]}>
          <Routes>
            <Route path="account/*" element={<AccountRoutes />} />
          </Routes>
        </MemoryRouter>
      </ConfigProvider>
    </I18nextProvider>,
  );
  return { ...view, i18n };
}

export function json(status: number, body: unknown): Response {
  return jsonResponse(body, status);
}

type Handler = Response | Error | ((init: RequestInit | undefined) => Response | Promise<Response>);

export interface ApiMock {
  fetch: ReturnType<typeof vi.fn<typeof fetch>>;
  /** Answers `METHOD /path` (query string ignored); a later call for the same route replaces it. */
  on: (route: string, handler: Handler) => ApiMock;
  /** The JSON bodies posted to a path, in order. */
  posted: (path: string) => unknown[];
  /** The requests made to a path (method and headers included). */
  calls: (path: string) => Array<{ url: string; init: RequestInit | undefined }>;
}

/**
 * A fetch standing in for the backend. Unknown routes answer 404 like the API does; the config
 * and interaction calls of the sign-in page default to "Microsoft on, sign-in prompt".
 */
export function mockApi(): ApiMock {
  const routes = new Map<string, Handler>();
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url, window.location.origin).pathname;
    const handler = routes.get(`${init?.method ?? 'GET'} ${path}`);
    if (!handler) return json(404, { code: 'errors.route_not_found', message: 'Not found', errors: [] });
    if (handler instanceof Error) throw handler;
    return typeof handler === 'function' ? handler(init) : handler.clone();
  });
  const api: ApiMock = {
    fetch: fetchMock,
    on(route, handler) {
      routes.set(route, handler);
      return api;
    },
    calls(path) {
      return fetchMock.mock.calls
        .map(([input, init]) => ({ url: String(input), init }))
        .filter(({ url }) => new URL(url, window.location.origin).pathname === path);
    },
    posted(path) {
      return api
        .calls(path)
        .filter(({ init }) => init?.method === 'POST')
        .map(({ init }) => JSON.parse(String(init?.body)));
    },
  };
  api.on('GET /api/v1/config', json(200, { serviceUrl: window.location.origin, microsoftSignIn: true }));
  api.on('GET /api/v1/account/interaction', () =>
    json(200, { uid: 'uid-1', prompt: 'login', client: null, scopes: [], missingScopes: [], loginHint: null }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return api;
}

/** The login response the API answers, with its defaults. */
export function loginAnswer(fields: Record<string, unknown> = {}) {
  return {
    success: false,
    errors: [],
    redirectTo: null,
    changePassword: false,
    twoAuthentificationRequired: false,
    token: null,
    ...fields,
  };
}
