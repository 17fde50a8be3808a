import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import type { UnauthorizedRetry } from '../auth/unauthorized-retry';

/** An application as `homeInfo` lists it. */
export interface Application {
  id: string;
  title: string;
  description: string | null;
  publicUrl: string | null;
  privateUrl: string | null;
  prerelease: boolean;
  hasAccess: boolean;
  isUserFavorite: boolean;
  status: 'Running' | 'Maintenance' | 'Stopped' | string;
}

export interface HomeInfo {
  applications: { items: Application[]; count: number };
  /** Where customers without the Identity application are sent. */
  clientPortalAppId: string | null;
}

export type ApplicationStatus = 'Running' | 'Maintenance' | 'Stopped';

export interface PasswordResetReply {
  success: boolean;
  message?: string;
}

/** What the API layer is handed at store creation (the thunk's extra argument). */
export interface ApiDependencies {
  accessToken(): Promise<string | undefined>;
  unauthorized: UnauthorizedRetry;
  /** The interface language, sent as Accept-Language so server messages match it. */
  language(): string;
}

/** The spec's timeout of API calls. */
export const API_TIMEOUT_MS = 60_000;

/** Icons are public (an <img> carries no token), so they load as plain image URLs. */
export function applicationIconUrl(appId: string): string {
  return `/api/v1/applications/icon/${encodeURIComponent(appId)}`;
}

// Absolute, because fetchBaseQuery builds a Request, which outside a browser (tests) needs a full URL.
const rawBaseQuery = fetchBaseQuery({ baseUrl: globalThis.location?.origin ?? '', timeout: API_TIMEOUT_MS });

/**
 * Sends the bearer token and the language with every call. A 401 renews the tokens silently and
 * sends the call again, within the limit of renewals in a row that {@link UnauthorizedRetry} keeps.
 */
export const authorizedBaseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const dependencies = api.extra as ApiDependencies;
  const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
  for (;;) {
    const token = await dependencies.accessToken();
    const headers = new Headers(request.headers as HeadersInit | undefined);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    headers.set('Accept-Language', dependencies.language());
    const result = await rawBaseQuery({ ...request, headers }, api, extraOptions);
    if (result.error?.status !== 401) {
      // Any HTTP answer but 401 means the token was accepted; a network failure says nothing.
      if (!result.error || typeof result.error.status === 'number') dependencies.unauthorized.succeeded();
      return result;
    }
    if (!(await dependencies.unauthorized.renewAfterUnauthorized(token))) return result;
  }
};

export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: authorizedBaseQuery,
  endpoints: (build) => ({
    homeInfo: build.query<HomeInfo, void>({
      query: () => '/api/v1/admin/applications/homeInfo',
    }),
    applicationStatus: build.query<string, string>({
      query: (name) => ({
        url: `/api/v1/applications/status/${encodeURIComponent(name)}`,
        responseHandler: 'text',
      }),
    }),
    // A GET with an effect (it mails a reset link), so never cached: a mutation.
    requestPasswordReset: build.mutation<PasswordResetReply, string>({
      query: (userName) => ({ url: `/api/v1/profile/resetPassword/${encodeURIComponent(userName)}`, method: 'GET' }),
    }),
  }),
});

export const { useHomeInfoQuery, useApplicationStatusQuery, useRequestPasswordResetMutation } = portalApi;
