import { vi } from 'vitest';

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export type Handler = (request: Request) => Response | Promise<Response>;
export type ApiRoutes = Record<string, Handler | Response | unknown>;

/**
 * Stubs fetch with answers by method and path ('GET /api/v1/…'); anything else is a 404. A value
 * that is not a function or a Response is sent as JSON. Returns the mock, whose calls hold the
 * requests (a Request, or the URL and init of a plain fetch).
 */
export function stubApi(routes: ApiRoutes) {
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
