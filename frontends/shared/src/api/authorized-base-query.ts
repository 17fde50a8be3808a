import { fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { DpopNonces, type ProofTarget, type RequestAuthorization } from '../auth/dpop';
import { UnauthorizedRetry } from '../auth/unauthorized-retry';
import { productBasePath, productPath } from '../base-path';

/** What the API layer is handed at store creation (the thunk's extra argument). */
export interface ApiDependencies {
  /** The session's authorization of a call (its access token and DPoP proof), or undefined when signed out. */
  authorize(target: ProofTarget): Promise<RequestAuthorization | undefined>;
  /** The DPoP nonces the servers sent, for the next proofs. */
  nonces: DpopNonces;
  unauthorized: UnauthorizedRetry;
  /** The interface language, sent as Accept-Language so server messages match it. */
  language(): string;
}

/** What a session must offer the API layer: the authorization of a call, and a renewal after a 401. */
export interface TokenSource {
  authorize(target: ProofTarget): Promise<RequestAuthorization | undefined>;
  renew(options: { rejectedToken?: string }): Promise<unknown>;
}

/** Dependencies of one signed-in session: its token source and the UI language. */
export function createApiDependencies(auth: TokenSource, language: () => string): ApiDependencies {
  return {
    authorize: (target) => auth.authorize(target),
    nonces: new DpopNonces(),
    unauthorized: new UnauthorizedRetry((rejectedToken) => auth.renew({ rejectedToken })),
    language,
  };
}

/** The spec's timeout of API calls. */
export const API_TIMEOUT_MS = 60_000;

// Absolute, because fetchBaseQuery builds a Request, which outside a browser (tests) needs a full URL;
// under the product's base path, which the API paths ("/api/v1/…") are joined to.
const API_BASE_URL = `${globalThis.location?.origin ?? ''}${productBasePath()}`;

interface AuthorizedResponse {
  response: Response;
  /** The access token the call carried, if any. */
  token: string | undefined;
}

/**
 * Sends one call to `url` authorized by the session: `send` adds the given headers to the call and
 * sends it. A server that wants a DPoP nonce (401 `use_dpop_nonce`, RFC 9449 §9) gets the call once
 * more, with a fresh proof carrying it.
 */
async function sendAuthorized(
  dependencies: ApiDependencies,
  target: { url: string; method: string },
  send: (authorization: Headers) => Promise<Response>,
): Promise<AuthorizedResponse> {
  let nonce = dependencies.nonces.for(target.url);
  for (let attempt = 1; ; attempt += 1) {
    const authorization = await dependencies.authorize({ url: target.url, method: target.method, nonce });
    const response = await send(new Headers(authorization?.headers));
    const challenge = dependencies.nonces.remember(target.url, response);
    if (!challenge || attempt > 1 || !authorization?.headers.DPoP) return { response, token: authorization?.token };
    nonce = challenge;
  }
}

/**
 * fetchBaseQuery with the session's authorization added to the Request it builds, so that the
 * proof names that request's URL and method; `sent` hears which token each call carried.
 */
function authorizedRawQuery(dependencies: ApiDependencies, sent: (token: string | undefined) => void) {
  return fetchBaseQuery({
    baseUrl: API_BASE_URL,
    timeout: API_TIMEOUT_MS,
    fetchFn: async (input) => {
      const request = input as Request;
      const target = { url: request.url, method: request.method };
      const { response, token } = await sendAuthorized(dependencies, target, (authorization) => {
        // A copy per attempt: a body is read once.
        const attempt = request.clone();
        authorization.forEach((value, name) => attempt.headers.set(name, value));
        return fetch(attempt);
      });
      sent(token);
      return response;
    },
  });
}

/**
 * Sends the access token (with its DPoP proof) and the language with every call. A 401 renews the
 * tokens silently and sends the call again, within the limit of renewals in a row that
 * {@link UnauthorizedRetry} keeps.
 */
export const authorizedBaseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const dependencies = api.extra as ApiDependencies;
  const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
  let token: string | undefined;
  const rawBaseQuery = authorizedRawQuery(dependencies, (sent) => (token = sent));
  for (;;) {
    const headers = new Headers(request.headers as HeadersInit | undefined);
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
 * `fetch` with the same authorization, language and 401 renewal as {@link authorizedBaseQuery}, for
 * calls RTK Query does not fit (file downloads and uploads). Resolves with the last response,
 * whatever its status.
 */
export async function authorizedFetch(
  dependencies: ApiDependencies,
  input: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  const url = new URL(typeof input === 'string' ? productPath(input) : input, globalThis.location?.origin);
  const method = (init.method ?? 'GET').toUpperCase();
  for (;;) {
    const { response, token } = await sendAuthorized(dependencies, { url: url.href, method }, (authorization) => {
      const headers = new Headers(init.headers);
      authorization.forEach((value, name) => headers.set(name, value));
      headers.set('Accept-Language', dependencies.language());
      return fetch(url, {
        ...init,
        headers,
        credentials: 'same-origin',
        signal: init.signal ?? AbortSignal.timeout(API_TIMEOUT_MS),
      });
    });
    if (response.status !== 401) {
      dependencies.unauthorized.succeeded();
      return response;
    }
    // A FormData body can be sent again; a stream could not, and none is used here.
    if (!(await dependencies.unauthorized.renewAfterUnauthorized(token))) return response;
  }
}
