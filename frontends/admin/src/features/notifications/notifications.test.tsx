import type { ActiveTask, UserNotification } from '@gatehouse/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderPage, FakeAuth, type ApiRoutes } from '../../test-utils';
import NotificationsCenter from './NotificationsCenter';
import { PROCESS_POLL_MS } from './use-process-toasts';
import { RECONNECT_DELAY_MS } from './use-notification-hub';
import { sockets, type FakeSocket } from './testing/fake-socket-io';

const ACTIVE = 'GET /api/v1/admin/notifications/active';
const TASKS = 'GET /api/v1/admin/tasks/active';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function note(overrides: Partial<UserNotification> = {}): UserNotification {
  return {
    id: 'n-1',
    type: 'PermissionAssigned',
    description: 'You have been given the role Reader (CRM) in Sales',
    readed: false,
    data: null,
    userId: 'admin-1',
    creationTime: minutesAgo(5),
    ...overrides,
  };
}

function task(overrides: Partial<ActiveTask> = {}): ActiveTask {
  return { id: 't-1', type: 'BulkInsertUsers', status: 'Running', startTime: minutesAgo(1), progress: 3, total: 10, ...overrides };
}

/** A notifications API that keeps its rows: reads, marks and deletions change what the next read answers. */
function notificationsApi(initial: UserNotification[], tasks: ActiveTask[] = []) {
  const state = { items: [...initial], tasks: [...tasks], marks: [] as unknown[] };
  const page = () => jsonResponse({ items: state.items, count: state.items.length, unread: state.items.filter((n) => !n.readed).length });
  const routes: ApiRoutes = {
    [ACTIVE]: () => page(),
    'PUT /api/v1/admin/notifications': async (request: Request) => {
      const body = (await request.json()) as { ids?: string[] };
      state.marks.push(body);
      const { ids } = body;
      const marked = state.items.filter((n) => !n.readed && (!ids || ids.includes(n.id)));
      state.items = state.items.map((n) => (marked.includes(n) ? { ...n, readed: true } : n));
      return jsonResponse({ marked: marked.length, unread: state.items.filter((n) => !n.readed).length });
    },
    'DELETE /api/v1/admin/notifications': () => {
      state.items = [];
      return new Response(null, { status: 204 });
    },
    'DELETE /api/v1/admin/notifications/n-1': () => {
      state.items = state.items.filter((n) => n.id !== 'n-1');
      return new Response(null, { status: 204 });
    },
    [TASKS]: () => jsonResponse({ items: state.tasks, count: state.tasks.length }),
  };
  return { state, routes };
}

const requests = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.map(([input]) => input as Request).map((request) => `${request.method} ${new URL(request.url).pathname}`);

async function renderCenter(routes: ApiRoutes, auth?: FakeAuth) {
  const rendered = await renderPage(<NotificationsCenter />, { namespaces: ['admin', 'notifications'], api: routes, auth });
  return rendered;
}

const bell = () => screen.findByRole('button', { name: /^Notifications/ });
const hub = (): FakeSocket => sockets.at(-1)!;

describe('notifications: the floating button and its flyout', () => {
  beforeEach(() => {
    sockets.length = 0;
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts the unread notifications on the button’s badge', async () => {
    const { routes } = notificationsApi([note({ id: 'a' }), note({ id: 'b' }), note({ id: 'c', readed: true })]);
    await renderCenter(routes);

    expect(await screen.findByRole('button', { name: 'Notifications: 2 unread notifications' })).toBeInTheDocument();
    expect(document.querySelector('.ant-badge')).toHaveTextContent('2');
  });

  it('marks those shown as read when the flyout opens, then reloads: the badge goes, they stay marked as new', async () => {
    const { routes, state } = notificationsApi([note({ id: 'a', creationTime: minutesAgo(3) }), note({ id: 'b', readed: true, description: 'Older' })]);
    const { fetchMock } = await renderCenter(routes);

    fireEvent.click(await screen.findByRole('button', { name: 'Notifications: 1 unread notification' }));

    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });
    await waitFor(() => expect(state.items.every((n) => n.readed)).toBe(true));
    expect(state.marks, 'the ids it shows, so one arriving meanwhile stays unread').toEqual([{ ids: ['a'] }]);
    await waitFor(() => expect(requests(fetchMock).filter((r) => r === ACTIVE)).toHaveLength(2));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(within(drawer).getByText('You have been given the role Reader (CRM) in Sales')).toBeInTheDocument();
    expect(within(drawer).getAllByText('Permission assigned')).toHaveLength(2);
    expect(within(drawer).getAllByText('New'), 'only the one that was unread').toHaveLength(1);
    expect(within(drawer).getByText('3 minutes ago')).toBeInTheDocument();
  });

  it('says "No Notifications" when there are none', async () => {
    const { routes } = notificationsApi([]);
    await renderCenter(routes);

    fireEvent.click(await bell());

    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(await within(drawer).findByText('No Notifications')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Delete all' })).not.toBeInTheDocument();
  });

  it('deletes one notification, then shows the list without it', async () => {
    const { routes } = notificationsApi([note({ id: 'n-1', description: 'Goes' }), note({ id: 'n-2', description: 'Stays' })]);
    const { fetchMock } = await renderCenter(routes);
    fireEvent.click(await bell());
    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });
    await within(drawer).findByText('Goes');

    fireEvent.click(within(drawer).getAllByRole('button', { name: 'Delete this notification' })[0]!);

    await waitFor(() => expect(within(drawer).queryByText('Goes')).not.toBeInTheDocument());
    expect(within(drawer).getByText('Stays')).toBeInTheDocument();
    expect(requests(fetchMock)).toContain('DELETE /api/v1/admin/notifications/n-1');
  });

  it('deletes them all once confirmed', async () => {
    const { routes } = notificationsApi([note({ id: 'a' }), note({ id: 'b' })]);
    const { fetchMock } = await renderCenter(routes);
    fireEvent.click(await bell());
    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });

    fireEvent.click(await within(drawer).findByRole('button', { name: 'Delete all' }));
    expect(requests(fetchMock)).not.toContain('DELETE /api/v1/admin/notifications');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));

    expect(await within(drawer).findByText('No Notifications')).toBeInTheDocument();
    expect(requests(fetchMock)).toContain('DELETE /api/v1/admin/notifications');
  });

  it('sums up an import and opens its rows in error or warning with "Open Result"', async () => {
    const data = {
      success: false,
      totalElements: 12,
      importedElements: 9,
      errors: [{ row: 4, reason: 'Area required' }],
      warnings: [
        { row: 7, reason: 'Already a member' },
        { row: 9, reason: 'Unknown language: kept English' },
      ],
    };
    const { routes } = notificationsApi([note({ type: 'BulkInsertUsers', description: 'users.xlsx', data })]);
    await renderCenter(routes);
    fireEvent.click(await bell());
    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });

    expect(await within(drawer).findByText('Users import')).toBeInTheDocument();
    expect(within(drawer).getByText('Total: 12')).toBeInTheDocument();
    expect(within(drawer).getByText('Imported: 9')).toBeInTheDocument();
    expect(within(drawer).getByText('Errors: 1')).toBeInTheDocument();
    expect(within(drawer).getByText('Warnings: 2')).toBeInTheDocument();

    fireEvent.click(within(drawer).getByRole('button', { name: 'Open Result' }));

    // The modal opens over the flyout (both dialogs; their titles share the tests' fixed id).
    const result = (await screen.findByText('Area required')).closest<HTMLElement>('[role=dialog]')!;
    expect(within(result).getByText('Result')).toBeInTheDocument();
    const tables = within(result).getAllByRole('table');
    expect(within(result).getByRole('heading', { name: 'Errors' })).toBeInTheDocument();
    expect(within(result).getByRole('heading', { name: 'Warnings' })).toBeInTheDocument();
    expect(within(result).getByText('Area required')).toBeInTheDocument();
    expect(within(result).getByText('Unknown language: kept English')).toBeInTheDocument();
    expect(tables.length).toBeGreaterThan(0);
    fireEvent.click(within(result).getByText('Close'));
    await waitFor(() => expect(screen.queryByText('Area required')).not.toBeInTheDocument());
  });

  it('downloads the file a background job produced with "Open Result", and says why when it is gone', async () => {
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: () => undefined }));
    let expired = false;
    const { routes } = notificationsApi([note({ type: 'AdminReport', description: 'The full admin report is ready.', data: { success: true, fileUrl: 'f-1' } })]);
    const { fetchMock } = await renderCenter({
      ...routes,
      'GET /api/v1/admin/filestorage/downloadExcel': () =>
        expired
          ? jsonResponse({ code: 'errors.file_expired', message: 'This file has expired', errors: [], requestId: 'r' }, 404)
          : new Response('xlsx-bytes', { status: 200, headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } }),
    });
    fireEvent.click(await bell());
    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });

    fireEvent.click(await within(drawer).findByRole('button', { name: 'Open Result' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe('xlsx-bytes');
    const asked = fetchMock.mock.calls
      .map(([input]) => new URL(input instanceof Request ? input.url : String(input), window.location.origin))
      .find((url) => url.pathname.endsWith('/downloadExcel'))!;
    expect(asked.searchParams.get('url')).toBe('f-1');

    expired = true;
    fireEvent.click(within(drawer).getByRole('button', { name: 'Open Result' }));
    expect(await within(drawer).findByText('This file has expired')).toBeInTheDocument();
  });

  it('shows a failure’s message as an error banner, with no result to open', async () => {
    const { routes } = notificationsApi([note({ type: 'ExportTenants', description: null, data: { messageError: 'The export could not be written' } })]);
    await renderCenter(routes);
    fireEvent.click(await bell());
    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });

    const banner = await within(drawer).findByRole('alert');
    expect(banner).toHaveTextContent('An error occurred');
    expect(banner).toHaveTextContent('The export could not be written');
    expect(within(drawer).queryByRole('button', { name: 'Open Result' })).not.toBeInTheDocument();
  });

  it('shows the list’s error when it cannot be read', async () => {
    await renderCenter({
      [ACTIVE]: jsonResponse({ code: 'errors.service_unavailable', message: 'The service is temporarily unavailable' }, 503),
      [TASKS]: { items: [], count: 0 },
    });
    fireEvent.click(await bell());
    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(await within(drawer).findByText('The service is temporarily unavailable')).toBeInTheDocument();
  });
});

describe('notifications: the live connection', () => {
  beforeEach(() => {
    sockets.length = 0;
  });

  it('connects to the hub on the console’s origin with the access token and its DPoP proof in the handshake, websockets only', async () => {
    const { routes } = notificationsApi([]);
    await renderCenter(routes);
    await bell();

    await waitFor(() => expect(sockets).toHaveLength(1));
    expect(hub().options).toMatchObject({ path: '/hubs/notifications', transports: ['websocket'] });
    expect(JSON.stringify(hub().options)).not.toContain('access-1');
    // A websocket takes no headers: the proof names the hub's address as socket.io asks for it.
    expect(await hub().handshakeAuth()).toEqual({ token: 'access-1', dpop: 'fake-proof GET http://localhost:3000/hubs/notifications/' });
  });

  it('sends a token the provider did not bind without a proof', async () => {
    const { routes } = notificationsApi([]);
    await renderCenter(routes, new FakeAuth(makeUser({ accessToken: 'plain', tokenType: 'Bearer' })));

    await waitFor(() => expect(sockets).toHaveLength(1));
    expect(await hub().handshakeAuth()).toEqual({ token: 'plain' });
  });

  it('shows a toast for a pushed notification and reloads the list (the badge counts it)', async () => {
    const { routes, state } = notificationsApi([]);
    await renderCenter(routes);
    await bell();
    await waitFor(() => expect(sockets).toHaveLength(1));

    const pushed = note({ id: 'pushed', description: 'You have been given the role Writer (CRM) in Sales' });
    state.items = [pushed];
    act(() => hub().receive('NewNotification', pushed));

    const toast = await screen.findByText('You have been given the role Writer (CRM) in Sales');
    expect(toast.closest('.ant-notification-notice')).toHaveTextContent('Permission assigned');
    expect(await screen.findByRole('button', { name: 'Notifications: 1 unread notification' })).toBeInTheDocument();
  });

  it('marks a notification pushed while the flyout is open as read at once', async () => {
    const { routes, state } = notificationsApi([]);
    await renderCenter(routes);
    fireEvent.click(await bell());
    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });
    await within(drawer).findByText('No Notifications');
    await waitFor(() => expect(sockets).toHaveLength(1));

    const pushed = note({ id: 'live', description: 'Arrived while open' });
    state.items = [pushed];
    act(() => hub().receive('NewNotification', pushed));

    await waitFor(() => expect(state.items[0]!.readed).toBe(true));
    expect(await within(drawer).findByText('Arrived while open')).toBeInTheDocument();
    expect(within(drawer).getByText('New')).toBeInTheDocument();
  });

  it('shows a running process as a toast that stays until the task list no longer names it', async () => {
    const { routes, state } = notificationsApi([]);
    const { fetchMock } = await renderCenter(routes);
    await bell();
    await waitFor(() => expect(sockets).toHaveLength(1));

    const running = task();
    state.tasks = [running];
    act(() => hub().receive('NewProcess', running));

    const toast = await screen.findByText('Users import in progress');
    expect(toast.closest('.ant-notification-notice')).toHaveTextContent('3 of 10 done');

    state.tasks = [];
    // Read again every few seconds while it is shown.
    await waitFor(() => expect(screen.queryByText('Users import in progress')).not.toBeInTheDocument(), { timeout: PROCESS_POLL_MS + 3000 });
    expect(requests(fetchMock).filter((r) => r === TASKS).length).toBeGreaterThanOrEqual(3);
  });

  it('shows the processes already running when the console opens, and closes them once finished', async () => {
    const { routes, state } = notificationsApi([], [task({ id: 't-9', type: 'ExportTenants', status: 'Queued', total: null })]);
    await renderCenter(routes);

    expect(await screen.findByText('Tenants export waiting to start')).toBeInTheDocument();
    await waitFor(() => expect(sockets).toHaveLength(1));
    state.tasks = [];
    // The hub says it (re)connected: the lists are read again.
    act(() => hub().receive('BeginConnection', { connectionId: 'c-1' }));
    await waitFor(() => expect(screen.queryByText('Tenants export waiting to start')).not.toBeInTheDocument());
  });

  it('opens a new connection when the token is renewed, closing the old one', async () => {
    const auth = new FakeAuth();
    const { routes } = notificationsApi([]);
    await renderCenter(routes, auth);
    await waitFor(() => expect(sockets).toHaveLength(1));
    const first = hub();

    act(() => auth.setUser(makeUser({ accessToken: 'access-2' })));

    await waitFor(() => expect(sockets).toHaveLength(2));
    expect(first.disconnect).toHaveBeenCalled();
    expect(await hub().handshakeAuth()).toEqual({ token: 'access-2', dpop: 'fake-proof GET http://localhost:3000/hubs/notifications/' });
  });

  it('comes back after the hub ends the connection (an expired token), and only logs a refused connection', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { routes } = notificationsApi([]);
    await renderCenter(routes);
    await waitFor(() => expect(sockets).toHaveLength(1));

    act(() => hub().receive('connect_error', new Error('unauthorized')));
    expect(debug).toHaveBeenCalledWith('notification hub: connection failed', 'unauthorized');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    act(() => hub().receive('disconnect', 'io server disconnect'));
    await waitFor(() => expect(hub().connect).toHaveBeenCalled(), { timeout: RECONNECT_DELAY_MS + 2000 });
  });

  it('opens no connection for a visitor who is not signed in', async () => {
    const { routes } = notificationsApi([]);
    await renderCenter(routes, new FakeAuth(null));
    await bell();
    expect(sockets).toHaveLength(0);
  });
});
