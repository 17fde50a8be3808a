import { describe, expect, it } from 'vitest';
import { FakeAuth, createTestStore, homeInfo, jsonResponse, makeUser, stubApi, app } from '../test-utils';
import { portalApi } from './portal-api';

const HOME_INFO = 'GET /api/v1/admin/applications/homeInfo';

function unauthorized() {
  return jsonResponse({ code: 'errors.unauthorized', message: 'Access is denied' }, 401);
}

describe('portal API calls', () => {
  it('send the bearer token and the interface language', async () => {
    const fetchMock = stubApi({ [HOME_INFO]: homeInfo([app({ id: 'crm', title: 'CRM' })]) });
    const store = createTestStore(new FakeAuth(makeUser({}, { accessToken: 'token-a' })), 'pt-BR');

    const result = await store.dispatch(portalApi.endpoints.homeInfo.initiate());

    expect(result.data?.applications.items[0]?.title).toBe('CRM');
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(request.headers.get('Authorization')).toBe('DPoP token-a');
    expect(request.headers.get('DPoP')).toBe('fake-proof GET http://localhost:3000/api/v1/admin/applications/homeInfo');
    expect(request.headers.get('Accept-Language')).toBe('pt-BR');
  });

  it('renews silently after a 401 and sends the call again with the new token', async () => {
    const auth = new FakeAuth(makeUser({}, { accessToken: 'old' }));
    auth.renew.mockImplementation(async () => {
      auth.setUser(makeUser({}, { accessToken: 'new' }));
      return auth.getUser();
    });
    const fetchMock = stubApi({
      [HOME_INFO]: (request: Request) =>
        request.headers.get('Authorization') === 'DPoP new' ? jsonResponse(homeInfo([])) : unauthorized(),
    });
    const store = createTestStore(auth);

    const result = await store.dispatch(portalApi.endpoints.homeInfo.initiate());

    expect(result.error).toBeUndefined();
    expect(auth.renew).toHaveBeenCalledTimes(1);
    expect(auth.renew).toHaveBeenCalledWith({ rejectedToken: 'old' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('gives up after three silent renewals in a row, and starts counting again after a success', async () => {
    const auth = new FakeAuth();
    let refuse = true;
    const fetchMock = stubApi({
      [HOME_INFO]: () => (refuse ? unauthorized() : jsonResponse(homeInfo([]))),
      'GET /api/v1/applications/status/portal': () => (refuse ? unauthorized() : new Response('Running')),
    });
    const store = createTestStore(auth);

    const first = await store.dispatch(portalApi.endpoints.homeInfo.initiate());
    expect(first.error).toMatchObject({ status: 401 });
    expect(auth.renew).toHaveBeenCalledTimes(3);
    expect(fetchMock).toHaveBeenCalledTimes(4);

    // Still three in a row: the next refused call is not renewed again.
    const second = await store.dispatch(portalApi.endpoints.applicationStatus.initiate('portal'));
    expect(second.error).toMatchObject({ status: 401 });
    expect(auth.renew).toHaveBeenCalledTimes(3);

    refuse = false;
    const third = await store.dispatch(portalApi.endpoints.applicationStatus.initiate('portal', { forceRefetch: true }));
    expect(third.data).toBe('Running');

    refuse = true;
    await store.dispatch(portalApi.endpoints.homeInfo.initiate(undefined, { forceRefetch: true }));
    expect(auth.renew).toHaveBeenCalledTimes(6);
  });

  it('reads the application status as text', async () => {
    stubApi({ 'GET /api/v1/applications/status/portal': new Response('Maintenance', { headers: { 'Content-Type': 'text/plain' } }) });
    const store = createTestStore(new FakeAuth());

    const result = await store.dispatch(portalApi.endpoints.applicationStatus.initiate('portal'));

    expect(result.data).toBe('Maintenance');
  });
});
