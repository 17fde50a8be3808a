import { describe, expect, it, vi } from 'vitest';
import { UnauthorizedRetry } from '../auth/unauthorized-retry';
import { authorizedFetch, type ApiDependencies } from './authorized-base-query';

function dependencies(tokens: string[], language = 'fr'): ApiDependencies & { renew: ReturnType<typeof vi.fn> } {
  let current = 0;
  const renew = vi.fn(async () => {
    current += 1;
    return current < tokens.length ? {} : null;
  });
  return {
    accessToken: async () => tokens[Math.min(current, tokens.length - 1)],
    unauthorized: new UnauthorizedRetry(renew),
    language: () => language,
    renew,
  };
}

function stubFetch(answer: (headers: Headers) => Response) {
  const fetchMock = vi.fn(async (_url: URL, init: RequestInit) => answer(new Headers(init.headers)));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('authorizedFetch', () => {
  it('sends the bearer token and the language with the given request', async () => {
    const fetchMock = stubFetch(() => new Response('ok'));

    const response = await authorizedFetch(dependencies(['t1'], 'pt-BR'), '/api/v1/admin/users/template', { method: 'GET' });

    expect(await response.text()).toBe('ok');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('http://localhost:3000/api/v1/admin/users/template');
    const headers = new Headers(init.headers);
    expect(headers.get('Authorization')).toBe('Bearer t1');
    expect(headers.get('Accept-Language')).toBe('pt-BR');
    expect(init.credentials).toBe('same-origin');
  });

  it('renews after a 401 and sends the request again with the new token', async () => {
    const deps = dependencies(['old', 'new']);
    const fetchMock = stubFetch((headers) =>
      headers.get('Authorization') === 'Bearer new' ? new Response('ok') : new Response(null, { status: 401 }),
    );

    const response = await authorizedFetch(deps, '/x');

    expect(response.status).toBe(200);
    expect(deps.renew).toHaveBeenCalledWith('old');
    expect(fetchMock).toHaveBeenCalledTimes(2);
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
