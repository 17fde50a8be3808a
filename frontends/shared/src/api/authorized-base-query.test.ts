import { configureStore } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query';
import { describe, expect, it, vi } from 'vitest';
import { DpopNonces, dpopTarget, type ProofTarget } from '../auth/dpop';
import { UnauthorizedRetry } from '../auth/unauthorized-retry';
import { authorizedBaseQuery, authorizedFetch, type ApiDependencies } from './authorized-base-query';

/** A session whose token is the next of `tokens` after each renewal; its proofs name the call they were made for. */
function dependencies(tokens: string[], language = 'fr'): ApiDependencies & { renew: ReturnType<typeof vi.fn>; proofs: ProofTarget[] } {
  let current = 0;
  const proofs: ProofTarget[] = [];
  const renew = vi.fn(async () => {
    current += 1;
    return current < tokens.length ? {} : null;
  });
  return {
    authorize: async (target) => {
      proofs.push(target);
      const token = tokens[Math.min(current, tokens.length - 1)]!;
      const proof = [`proof-${proofs.length}`, target.method, dpopTarget(target.url), target.nonce].filter(Boolean).join(' ');
      return { token, headers: { Authorization: `DPoP ${token}`, DPoP: proof } };
    },
    nonces: new DpopNonces(),
    unauthorized: new UnauthorizedRetry(renew),
    language: () => language,
    renew,
    proofs,
  };
}

/** A 401 asking for the DPoP nonce `nonce` (RFC 9449 §9). */
const nonceChallenge = (nonce: string) =>
  new Response(null, { status: 401, headers: { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': nonce } });

function stubFetch(answer: (headers: Headers) => Response) {
  const fetchMock = vi.fn(async (_url: URL, init: RequestInit) => answer(new Headers(init.headers)));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('authorizedFetch', () => {
  it('sends the token under the DPoP scheme with a proof of the call, and the language', async () => {
    const fetchMock = stubFetch(() => new Response('ok'));

    const response = await authorizedFetch(dependencies(['t1'], 'pt-BR'), '/api/v1/admin/users/template', { method: 'GET' });

    expect(await response.text()).toBe('ok');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('http://localhost:3000/api/v1/admin/users/template');
    const headers = new Headers(init.headers);
    expect(headers.get('Authorization')).toBe('DPoP t1');
    expect(headers.get('DPoP')).toBe('proof-1 GET http://localhost:3000/api/v1/admin/users/template');
    expect(headers.get('Accept-Language')).toBe('pt-BR');
    expect(init.credentials).toBe('same-origin');
  });

  it('renews after a 401 and sends the request again with the new token', async () => {
    const deps = dependencies(['old', 'new']);
    const fetchMock = stubFetch((headers) =>
      headers.get('Authorization') === 'DPoP new' ? new Response('ok') : new Response(null, { status: 401 }),
    );

    const response = await authorizedFetch(deps, '/x');

    expect(response.status).toBe(200);
    expect(deps.renew).toHaveBeenCalledWith('old');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    // The new token has a proof of its own.
    expect(new Headers(fetchMock.mock.calls[1]![1].headers).get('DPoP')).toMatch(/^proof-2 GET /);
  });

  it('sends the call once more with the nonce a server asks for, without renewing, and keeps it for the next calls', async () => {
    const deps = dependencies(['t']);
    const fetchMock = stubFetch((headers) => (headers.get('DPoP')?.endsWith(' n-1') ? new Response('ok') : nonceChallenge('n-1')));
    const form = new FormData();
    form.append('file', new Blob(['a;b']), 'users.csv');

    const response = await authorizedFetch(deps, '/api/v1/admin/users/import?dry=1', { method: 'post', body: form });
    await authorizedFetch(deps, '/api/v1/profile');

    expect(response.status).toBe(200);
    expect(deps.renew).not.toHaveBeenCalled();
    expect(deps.proofs).toEqual([
      { url: 'http://localhost:3000/api/v1/admin/users/import?dry=1', method: 'POST', nonce: undefined },
      { url: 'http://localhost:3000/api/v1/admin/users/import?dry=1', method: 'POST', nonce: 'n-1' },
      { url: 'http://localhost:3000/api/v1/profile', method: 'GET', nonce: 'n-1' },
    ]);
    expect(fetchMock.mock.calls[1]![1].body).toBe(form);
  });

  it('asks for the nonce once only: a server that keeps asking gets its 401 back after the renewal', async () => {
    const deps = dependencies(['t']);
    const fetchMock = stubFetch(() => nonceChallenge(`n-${Math.random()}`));

    const response = await authorizedFetch(deps, '/x');

    expect(response.status).toBe(401);
    // Once with the nonce, then the renewal (which gives no new token) ends it.
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(deps.renew).toHaveBeenCalledTimes(1);
  });

  it('hands back the 401 when no renewal helps', async () => {
    const deps = dependencies(['old']);
    stubFetch(() => new Response(null, { status: 401 }));

    const response = await authorizedFetch(deps, '/x');

    expect(response.status).toBe(401);
    expect(deps.renew).toHaveBeenCalledTimes(1);
  });

  it('returns other failures as they are, for the caller to read', async () => {
    stubFetch(() => new Response(JSON.stringify({ message: 'Interdit' }), { status: 403 }));

    const response = await authorizedFetch(dependencies(['t']), '/x');

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Interdit' });
  });
});

/** An API of two endpoints on the authorized base query, in a store whose extra argument is `deps`. */
function storeWith(deps: ApiDependencies) {
  const api = createApi({
    reducerPath: 'test',
    baseQuery: authorizedBaseQuery,
    endpoints: (build) => ({
      users: build.query<unknown, string>({ query: (search) => ({ url: '/api/v1/admin/users', params: { search } }) }),
      lock: build.mutation<unknown, string>({ query: (id) => ({ url: `/api/v1/account/lock/${id}`, method: 'PUT', body: { reason: 'x' } }) }),
    }),
  });
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    middleware: (defaults) => defaults({ thunk: { extraArgument: deps } }).concat(api.middleware),
  });
  return { api, store };
}

describe('authorizedBaseQuery', () => {
  function stubRequests(answer: (request: Request) => Response | Promise<Response>) {
    const fetchMock = vi.fn(async (request: Request) => answer(request));
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  it('makes the proof for the request RTK Query builds: its method, and its URL without the query', async () => {
    const deps = dependencies(['t1']);
    const fetchMock = stubRequests(() => new Response('{}', { headers: { 'Content-Type': 'application/json' } }));
    const { api, store } = storeWith(deps);

    await store.dispatch(api.endpoints.users.initiate('zoé'));
    await store.dispatch(api.endpoints.lock.initiate('u-1'));

    const [list, lock] = fetchMock.mock.calls.map(([request]) => request);
    expect(list!.url).toBe('http://localhost:3000/api/v1/admin/users?search=zo%C3%A9');
    expect(list!.headers.get('Authorization')).toBe('DPoP t1');
    expect(list!.headers.get('DPoP')).toBe('proof-1 GET http://localhost:3000/api/v1/admin/users');
    expect(list!.headers.get('Accept-Language')).toBe('fr');
    expect(lock!.method).toBe('PUT');
    expect(lock!.headers.get('DPoP')).toBe('proof-2 PUT http://localhost:3000/api/v1/account/lock/u-1');
    expect(await lock!.json()).toEqual({ reason: 'x' });
  });

  it('sends a call again with the nonce a server asks for, its body whole, then renews after a plain 401', async () => {
    const deps = dependencies(['old', 'new']);
    const bodies: string[] = [];
    const fetchMock = stubRequests(async (request) => {
      bodies.push(await request.text());
      if (!request.headers.get('DPoP')?.endsWith(' n-1')) return nonceChallenge('n-1');
      if (request.headers.get('Authorization') === 'DPoP old') return new Response(null, { status: 401 });
      return new Response('{}', { headers: { 'Content-Type': 'application/json' } });
    });
    const { api, store } = storeWith(deps);

    const result = await store.dispatch(api.endpoints.lock.initiate('u-1'));

    expect(result.error).toBeUndefined();
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(bodies).toEqual(['{"reason":"x"}', '{"reason":"x"}', '{"reason":"x"}']);
    expect(deps.renew).toHaveBeenCalledTimes(1);
    expect(deps.renew).toHaveBeenCalledWith('old');
  });
});
