import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n/create-i18n';
import { ApiError, fetchJson } from './fetch-json';

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

describe('fetchJson', () => {
  it('returns the parsed body and sends the current language with same-origin credentials', async () => {
    createI18n({ language: 'pt-BR' });
    fetchMock.mockResolvedValue(jsonResponse(200, { environment: 'test' }));

    await expect(fetchJson('/api/v1/config')).resolves.toEqual({ environment: 'test' });

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/config');
    expect(init?.credentials).toBe('same-origin');
    const headers = new Headers(init?.headers);
    expect(headers.get('Accept-Language')).toBe('pt-BR');
    expect(headers.get('Accept')).toBe('application/json');
  });

  it('follows language changes', async () => {
    const i18n = createI18n({ language: 'en' });
    await i18n.changeLanguage('de');
    fetchMock.mockResolvedValue(jsonResponse(200, {}));

    await fetchJson('/api/v1/config');

    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get('Accept-Language')).toBe('de');
  });

  it('serialises a JSON body', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));

    await expect(
      fetchJson('/api/v1/things', { method: 'POST', json: { name: 'x' }, language: 'it' }),
    ).resolves.toBeUndefined();

    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"name":"x"}');
    const headers = new Headers(init?.headers);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Accept-Language')).toBe('it');
  });

  it('throws an error carrying the status, code, message and details of an error body', async () => {
    const errors = [{ field: 'email', message: 'Invalid email' }];
    fetchMock.mockResolvedValue(
      jsonResponse(422, { code: 'validation_failed', message: 'Validation failed', errors }),
    );

    const error = await rejection(fetchJson('/api/v1/users'));

    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(422);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('Validation failed');
    expect(error.errors).toEqual(errors);
  });

  it('reports "Not found" for a 404 without message', async () => {
    fetchMock.mockResolvedValue(new Response('', { status: 404 }));

    const error = await rejection(fetchJson('/api/v1/missing'));

    expect(error.status).toBe(404);
    expect(error.message).toBe('Not found');
    expect(error.code).toBeUndefined();
  });

  it('reports "Unknown error" when the error body has no message', async () => {
    fetchMock.mockResolvedValue(jsonResponse(400, { code: 'bad_request' }));

    const error = await rejection(fetchJson('/api/v1/users'));

    expect(error.status).toBe(400);
    expect(error.code).toBe('bad_request');
    expect(error.message).toBe('Unknown error');
  });

  it('reports "Unknown error" when the error body is not JSON', async () => {
    fetchMock.mockResolvedValue(new Response('<h1>Bad gateway</h1>', { status: 502 }));

    const error = await rejection(fetchJson('/api/v1/users'));

    expect(error.status).toBe(502);
    expect(error.message).toBe('Unknown error');
  });

  it('rejects a successful response that is not JSON', async () => {
    fetchMock.mockResolvedValue(new Response('<!doctype html>', { status: 200 }));

    const error = await rejection(fetchJson('/api/v1/config'));

    expect(error.status).toBe(200);
    expect(error.message).toBe('Invalid JSON response');
  });
});
