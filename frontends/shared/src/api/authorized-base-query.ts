import { fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { UnauthorizedRetry } from '../auth/unauthorized-retry';
import { productBasePath, productPath } from '../base-path';

/** What the API layer is handed at store creation (the thunk's extra argument). */
export interface ApiDependencies {
  accessToken(): Promise<string | undefined>;
  unauthorized: UnauthorizedRetry;
  /** The interface language, sent as Accept-Language so server messages match it. */
  language(): string;
}

/** What a session must offer the API layer: its access token, and a renewal after a 401. */
export interface TokenSource {
  accessToken(): Promise<string | undefined>;
  renew(options: { rejectedToken?: string }): Promise<unknown>;
}

/** Dependencies of one signed-in session: its token source and the UI language. */
export function createApiDependencies(auth: TokenSource, language: () => string): ApiDependencies {
  return {
    accessToken: () => auth.accessToken(),
    unauthorized: new UnauthorizedRetry((rejectedToken) => auth.renew({ rejectedToken })),
    language,
  };
}

/** The spec's timeout of API calls. */
export const API_TIMEOUT_MS = 60_000;

// Absolute, because fetchBaseQuery builds a Request, which outside a browser (tests) needs a full URL;
// under the product's base path, which the API paths ("/api/v1/…") are joined to.
const rawBaseQuery = fetchBaseQuery({ baseUrl: `${globalThis.location?.origin ?? ''}${productBasePath()}`, timeout: API_TIMEOUT_MS });

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

/**
 * `fetch` with the same bearer token, language and 401 renewal as {@link authorizedBaseQuery}, for
 * calls RTK Query does not fit (file downloads and uploads). Resolves with the last response,
 * whatever its status.
 */
export async function authorizedFetch(
  dependencies: ApiDependencies,
  input: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  const url = new URL(typeof input === 'string' ? productPath(input) : input, globalThis.location?.origin);
  for (;;) {
    const token = await dependencies.accessToken();
    const headers = new Headers(init.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    headers.set('Accept-Language', dependencies.language());
    const response = await fetch(url, {
      ...init,
      headers,
      credentials: 'same-origin',
      signal: init.signal ?? AbortSignal.timeout(API_TIMEOUT_MS),
    });
    if (response.status !== 401) {
      dependencies.unauthorized.succeeded();
      return response;
    }
    // A FormData body can be sent again; a stream could not, and none is used here.
    if (!(await dependencies.unauthorized.renewAfterUnauthorized(token))) return response;
  }
}
