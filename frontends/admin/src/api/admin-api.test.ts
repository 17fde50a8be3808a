import { ApiError } from '@gatehouse/frontend-shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminMe, createTestStore, FakeAuth, jsonResponse, makeUser, stubApi } from '../test-utils';
import { downloadFile, toQueryString, uploadFile } from './admin-api';
import { dashboardApi } from './dashboard';
import { meApi } from './me';

const EXPORT = 'GET /api/v1/admin/users/export';
const BULK = 'POST /api/v1/admin/users/bulk_insert';

function savedLinks() {
  const clicked: HTMLAnchorElement[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
  return clicked;
}

describe('admin API endpoints', () => {
  it('send the bearer token and the interface language', async () => {
    const fetchMock = stubApi({ 'GET /api/v1/admin/me': adminMe(['God']) });
    const store = createTestStore(new FakeAuth(makeUser({ accessToken: 'token-a' })), 'fr');

    const result = await store.dispatch(meApi.endpoints.me.initiate());

    expect(result.data?.roles).toEqual(['God']);
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(request.headers.get('Authorization')).toBe('DPoP token-a');
    expect(request.headers.get('DPoP')).toBe('fake-proof GET http://localhost:3000/api/v1/admin/me');
    expect(request.headers.get('Accept-Language')).toBe('fr');
  });

  it('read the dashboard counts', async () => {
    stubApi({ 'GET /api/v1/admin/dashboard/base': { usersCount: 3, groupsCount: 2, appsCount: 1, areasCount: 4, tenantsCount: 5 } });
    const store = createTestStore(new FakeAuth());

    const result = await store.dispatch(dashboardApi.endpoints.dashboardBase.initiate());

    expect(result.data).toEqual({ usersCount: 3, groupsCount: 2, appsCount: 1, areasCount: 4, tenantsCount: 5 });
  });
});

describe('toQueryString', () => {
  it('keeps the defined values of a list query, encoded', () => {
    expect(toQueryString({ $search: 'ana lima', skip: 0, top: 25, orderBy: 'userName asc', locked: false, area: undefined, x: '' })).toBe(
      '?%24search=ana+lima&skip=0&top=25&orderBy=userName+asc&locked=false',
    );
    expect(toQueryString({})).toBe('');
    expect(toQueryString(undefined)).toBe('');
  });
});

describe('downloadFile', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fetches with the token and language, then saves the blob under the given name', async () => {
    const fetchMock = stubApi({ [EXPORT]: new Response('xlsx-bytes', { status: 200 }) });
    createTestStore(new FakeAuth(makeUser({ accessToken: 'token-d' })), 'de');
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:users');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicked = savedLinks();

    await downloadFile('/api/v1/admin/users/export?locked=true', 'Users.xlsx');

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('http://localhost:3000/api/v1/admin/users/export?locked=true');
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('DPoP token-d');
    // The proof names the address without its query (RFC 9449 §4.2).
    expect(headers.get('DPoP')).toBe('fake-proof GET http://localhost:3000/api/v1/admin/users/export');
    expect(headers.get('Accept-Language')).toBe('de');
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe('xlsx-bytes');
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('Users.xlsx');
    expect(clicked[0]!.href).toBe('blob:users');
    // The link is gone; the blob URL goes once the browser has started the download.
    expect(document.querySelector('a[download]')).toBeNull();
    await vi.waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:users'));
  });

  it("takes the server's file name when it sends one", async () => {
    stubApi({
      [EXPORT]: new Response('x', { headers: { 'Content-Disposition': "attachment; filename*=UTF-8''Utilisateurs%20%C3%A9t%C3%A9.xlsx" } }),
    });
    createTestStore(new FakeAuth());
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    const clicked = savedLinks();

    await downloadFile('/api/v1/admin/users/export', 'Users.xlsx');

    expect(clicked[0]!.download).toBe('Utilisateurs été.xlsx');
  });

  it("rejects with the server's message and saves nothing", async () => {
    stubApi({ [EXPORT]: jsonResponse({ code: 'errors.forbidden', message: 'Accès refusé', errors: [], requestId: 'r' }, 403) });
    createTestStore(new FakeAuth());
    const clicked = savedLinks();

    const error = await downloadFile('/api/v1/admin/users/export', 'Users.xlsx').catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, message: 'Accès refusé', code: 'errors.forbidden' });
    expect(clicked).toHaveLength(0);
  });

  it('renews the token once after a 401 and tries again', async () => {
    const auth = new FakeAuth(makeUser({ accessToken: 'old' }));
    auth.renew.mockImplementation(async () => {
      auth.setUser(makeUser({ accessToken: 'new' }));
      return auth.getUser();
    });
    stubApi({
      [EXPORT]: (request: Request) =>
        request.headers.get('Authorization') === 'DPoP new' ? new Response('ok') : jsonResponse({ message: 'expired' }, 401),
    });
    createTestStore(auth);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    const clicked = savedLinks();

    await downloadFile('/api/v1/admin/users/export', 'Users.xlsx');

    expect(auth.renew).toHaveBeenCalledWith({ rejectedToken: 'old' });
    expect(clicked).toHaveLength(1);
  });
});

describe('uploadFile', () => {
  it('posts the file as the multipart field "file" with the token and language, and returns the JSON answer', async () => {
    // A plain fetch mock: the body must reach fetch as the FormData itself, so the browser writes
    // the multipart boundary (jsdom's FormData would not survive Node's Request).
    const fetchMock = vi.fn(async (_url: URL, _init: RequestInit) => jsonResponse({ processId: 'p-1' }, 202));
    vi.stubGlobal('fetch', fetchMock);
    createTestStore(new FakeAuth(makeUser({ accessToken: 'token-u' })), 'it');
    const file = new File(['a,b'], 'users.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

    const result = await uploadFile<{ processId: string }>('/api/v1/admin/users/bulk_insert', file, file.name);

    expect(result).toEqual({ processId: 'p-1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('http://localhost:3000/api/v1/admin/users/bulk_insert');
    expect(init.method).toBe('POST');
    const sent = (init.body as FormData).get('file') as File;
    expect(sent.name).toBe('users.xlsx');
    expect(await sent.text()).toBe('a,b');
    const headers = new Headers(init.headers);
    expect(headers.get('Authorization')).toBe('DPoP token-u');
    expect(headers.get('DPoP')).toBe('fake-proof POST http://localhost:3000/api/v1/admin/users/bulk_insert');
    expect(headers.get('Accept-Language')).toBe('it');
    expect(headers.has('Content-Type')).toBe(false);
  });

  it('resolves with undefined when the server sends no body', async () => {
    stubApi({ [BULK]: new Response(null, { status: 204 }) });
    createTestStore(new FakeAuth());

    expect(await uploadFile('/api/v1/admin/users/bulk_insert', new Blob(['x']))).toBeUndefined();
  });

  it("rejects with the server's message and field errors", async () => {
    const body = { code: 'validation', message: 'Le fichier est invalide', errors: [{ field: 'file', message: 'Colonne manquante' }], requestId: 'r' };
    stubApi({ [BULK]: jsonResponse(body, 422) });
    createTestStore(new FakeAuth());

    const error = (await uploadFile('/api/v1/admin/users/bulk_insert', new Blob(['x'])).catch((reason: unknown) => reason)) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Le fichier est invalide');
    expect(error.errors).toEqual([{ field: 'file', message: 'Colonne manquante' }]);
  });

  it('falls back to the generic message when the answer is not the API’s JSON', async () => {
    stubApi({ [BULK]: new Response('<html>Bad gateway</html>', { status: 502 }) });
    createTestStore(new FakeAuth());

    await expect(uploadFile('/api/v1/admin/users/bulk_insert', new Blob(['x']))).rejects.toMatchObject({ status: 502, message: 'Unknown error' });
  });
});
