import { changeLanguage } from '@gatehouse/frontend-shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n, jsonResponse, renderSignedIn, stubApi } from '../test-utils';
import { NotificationsBell } from './NotificationsBell';
import { ACTIVE, FILE, TASKS, fakeNotificationsApi, note, requested, task } from './testing';

// Local times, so that the expected texts do not depend on the machine's time zone.
const NEWEST = new Date(2025, 10, 24, 9, 30, 5);
const OLDER = new Date(2025, 10, 20, 17, 2, 0);

let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
  // The drawer is fetched when first opened: loaded here, so that opening it waits on nothing.
  await import('./NotificationsDrawer');
});

let saved: HTMLAnchorElement[];

beforeEach(() => {
  saved = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this);
  });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:result', revokeObjectURL: () => undefined }));
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Renders the bell over `routes` and opens its drawer; answers the drawer and the fetch mock. */
async function openDrawer(routes: Record<string, unknown>) {
  const fetchMock = stubApi(routes);
  renderSignedIn(<NotificationsBell />, { i18n });
  fireEvent.click(await screen.findByRole('button', { name: /^Notifications/ }));
  const drawer = await screen.findByRole('dialog', { name: 'Notifications' });
  return { drawer, fetchMock };
}

/** The import's result: its modal sits over the drawer (found by its title: in tests both dialogs' labels share one id). */
async function resultDialog(): Promise<HTMLElement> {
  return (await screen.findByText('Import result')).closest<HTMLElement>('[role="dialog"]')!;
}

const itemsOf = (drawer: HTMLElement) => within(within(drawer).getByRole('list', { name: 'Notifications' })).getAllByRole('listitem');

const importResult = {
  success: false,
  totalElements: 4,
  importedElements: 2,
  errors: [
    { row: 3, reason: 'The role Writer is not offered for access requests' },
    { row: 5, reason: 'Unknown user: ghost@client.example' },
  ],
  warnings: [{ row: 4, reason: 'The user already holds Reader' }],
};

describe('NotificationsDrawer', () => {
  it('lists the notifications newest first, each with its description, date and read state', async () => {
    const { routes } = fakeNotificationsApi([
      note({ id: 'new', type: 'OperationRequest', description: 'Your access request for Ann Client in Acme was approved', creationTime: NEWEST.toISOString() }),
      note({ id: 'old', type: 'BulkInsertPermisionRequestForTenant', description: 'Your import has finished: 2 of 4 rows imported', readed: true, creationTime: OLDER.toISOString() }),
    ]);
    const { drawer } = await openDrawer(routes);

    await within(drawer).findByText('Your access request for Ann Client in Acme was approved');
    const [first, second] = itemsOf(drawer);
    expect(first).toHaveTextContent('Access request');
    expect(within(first!).getByText('Unread')).toBeInTheDocument();
    expect(within(first!).getByText('24-11-2025 09:30:05')).toHaveAttribute('datetime', NEWEST.toISOString());
    expect(second).toHaveTextContent('Access requests import');
    expect(second).toHaveTextContent('Your import has finished: 2 of 4 rows imported');
    expect(within(second!).queryByText('Unread')).not.toBeInTheDocument();
    expect(within(second!).getByText('Read')).toHaveClass('visually-hidden');
    expect(within(second!).getByText('20-11-2025 17:02:00')).toBeInTheDocument();
  });

  it('names a webhook turned off for failing, which its application’s owners are told of', async () => {
    const { routes } = fakeNotificationsApi([
      note({ id: 'hook', type: 'WebhookDisabled', description: 'The webhook endpoint https://hooks.example.com/in received nothing for a day and was turned off.' }),
    ]);
    const { drawer } = await openDrawer(routes);
    await within(drawer).findByText(/received nothing for a day/);
    expect(itemsOf(drawer)[0]).toHaveTextContent('Webhook turned off');
  });

  it('asks the list again when the interface changes language: the server writes it in the reader’s', async () => {
    const switching = await createTestI18n('en');
    const byLanguage: Record<string, string> = {
      en: 'You have been given the role Reader (CRM) in Acme',
      de: 'Ihnen wurde die Rolle Reader (CRM) in Acme zugewiesen',
    };
    // The server as it answers in the interface's language (the test store's calls keep the first one's header).
    let serverLanguage = 'en';
    const fetchMock = stubApi({
      [ACTIVE]: () => jsonResponse({ items: [note({ type: 'PermissionAssigned', description: byLanguage[serverLanguage], readed: true })], count: 1, unread: 0 }),
      [TASKS]: { items: [], count: 0 },
    });
    const asked = () => fetchMock.mock.calls.filter(([input]) => new URL((input as Request).url).pathname === '/api/v1/admin/notifications/active').length;
    renderSignedIn(<NotificationsBell />, { i18n: switching });
    fireEvent.click(await screen.findByRole('button', { name: /^Notifications/ }));
    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(await within(drawer).findByText(byLanguage.en!)).toBeInTheDocument();
    const before = asked();

    serverLanguage = 'de';
    await act(() => changeLanguage(switching, 'de'));
    expect(await screen.findByText(byLanguage.de!)).toBeInTheDocument();
    expect(asked()).toBeGreaterThan(before);
    localStorage.clear();
  });

  it('says "No Notifications" when there are none, offering nothing to mark or delete', async () => {
    const { drawer } = await openDrawer(fakeNotificationsApi([]).routes);
    expect(await within(drawer).findByText('No Notifications')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Delete all' })).not.toBeInTheDocument();
  });

  it('marks all the shown notifications read by their ids; the badge and the tags follow', async () => {
    const { routes, state } = fakeNotificationsApi([note({ id: 'n-1' }), note({ id: 'n-2' }), note({ id: 'n-3', readed: true })]);
    const { drawer } = await openDrawer(routes);
    await waitFor(() => expect(within(drawer).getAllByText('Unread')).toHaveLength(2));

    fireEvent.click(within(drawer).getByRole('button', { name: 'Mark all as read' }));

    await waitFor(() => expect(within(drawer).queryByText('Unread')).not.toBeInTheDocument());
    expect(state.marks).toEqual([{ ids: ['n-1', 'n-2'] }]);
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('marks them all read, without ids, when unread ones are older than the list reaches', async () => {
    const { routes, state } = fakeNotificationsApi([note({ id: 'n-1' })], { unreadBeyond: 3 });
    const { drawer } = await openDrawer(routes);
    expect(await screen.findByRole('button', { name: 'Notifications: 4 unread notifications' })).toBeInTheDocument();

    fireEvent.click(within(drawer).getByRole('button', { name: 'Mark all as read' }));

    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(state.marks).toEqual([{}]);
  });

  it('marks one notification read, leaving the others unread', async () => {
    const { routes, state } = fakeNotificationsApi([note({ id: 'n-1', description: 'First' }), note({ id: 'n-2', description: 'Second' })]);
    const { drawer } = await openDrawer(routes);
    await within(drawer).findByText('First');

    fireEvent.click(within(itemsOf(drawer)[1]!).getByRole('button', { name: 'Mark as read' }));

    expect(await screen.findByRole('button', { name: 'Notifications: 1 unread notification' })).toBeInTheDocument();
    expect(state.marks).toEqual([{ ids: ['n-2'] }]);
    expect(within(itemsOf(drawer)[0]!).getByText('Unread')).toBeInTheDocument();
    expect(within(itemsOf(drawer)[1]!).queryByRole('button', { name: 'Mark as read' })).not.toBeInTheDocument();
  });

  it('deletes one notification, then all of them after a confirmation', async () => {
    const { routes } = fakeNotificationsApi([note({ id: 'n-1', description: 'First' }), note({ id: 'n-2', description: 'Second' })]);
    const { drawer, fetchMock } = await openDrawer(routes);
    await within(drawer).findByText('First');

    fireEvent.click(within(itemsOf(drawer)[0]!).getByRole('button', { name: 'Delete this notification' }));
    await waitFor(() => expect(within(drawer).queryByText('First')).not.toBeInTheDocument());
    expect(requested(fetchMock)).toContain('DELETE /api/v1/admin/notifications/n-1');
    expect(within(drawer).getByText('Second')).toBeInTheDocument();

    fireEvent.click(within(drawer).getByRole('button', { name: 'Delete all' }));
    const confirm = await screen.findByRole('tooltip');
    expect(confirm).toHaveTextContent('Delete all your notifications?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await within(drawer).findByText('No Notifications')).toBeInTheDocument();
    expect(requested(fetchMock)).toContain('DELETE /api/v1/admin/notifications');
  });

  it('opens an import’s result: its counts, and the rows refused or warned about with their messages; the notification becomes read', async () => {
    const { routes, state } = fakeNotificationsApi([note({ id: 'job', type: 'BulkInsertPermisionRequestForTenant', description: 'Your import has finished', data: importResult })]);
    const { drawer } = await openDrawer(routes);

    const [item] = await waitFor(() => itemsOf(drawer));
    expect(item).toHaveTextContent('Imported: 2 of 4');
    expect(within(item!).getByText('Errors: 2')).toBeInTheDocument();
    expect(within(item!).getByText('Warnings: 1')).toBeInTheDocument();
    fireEvent.click(within(item!).getByRole('button', { name: 'Open Result' }));

    const result = await resultDialog();
    const totals = Object.fromEntries([...result.querySelectorAll('dl > div')].map((entry) => [entry.querySelector('dt')!.textContent, entry.querySelector('dd')!.textContent]));
    expect(totals).toEqual({ 'Rows read': '4', Imported: '2', Errors: '2', Warnings: '1' });
    const errors = within(result).getByRole('region', { name: 'Errors' });
    const errorRows = within(errors).getAllByRole('row').filter((row) => within(row).queryAllByRole('cell').length > 0);
    expect(errorRows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['3', 'The role Writer is not offered for access requests'],
      ['5', 'Unknown user: ghost@client.example'],
    ]);
    const warnings = within(result).getByRole('region', { name: 'Warnings' });
    expect(within(warnings).getByText('The user already holds Reader')).toBeInTheDocument();
    await waitFor(() => expect(state.marks).toEqual([{ ids: ['job'] }]));

    // The footer's button (the corner's cross has the same name).
    fireEvent.click(within(result).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByText('Import result')).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Notifications' })).toBeInTheDocument();
  });

  it('opens the result of an import without errors: the counts alone', async () => {
    const { routes } = fakeNotificationsApi([note({ readed: true, type: 'BulkInsertPermisionRequestForTenant', data: { success: true, totalElements: 3, importedElements: 3, errors: [], warnings: [] } })]);
    const { drawer } = await openDrawer(routes);
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Open Result' }));

    const result = await resultDialog();
    expect(result).toHaveTextContent('Rows read3');
    expect(within(result).queryByRole('region')).not.toBeInTheDocument();
  });

  it('downloads a job’s file with the user’s token, and says why when it has expired', async () => {
    let expired = false;
    const { routes } = fakeNotificationsApi([note({ type: 'AdminReport', description: 'Your report is ready', data: { success: true, fileUrl: 'f-1' } })]);
    const { drawer, fetchMock } = await openDrawer({
      ...routes,
      [FILE]: () =>
        expired
          ? jsonResponse({ code: 'errors.file_expired', message: 'This file has expired' }, 404)
          : new Response('xlsx-bytes', { headers: { 'Content-Disposition': 'attachment; filename="Administrators.xlsx"' } }),
    });

    fireEvent.click(await within(drawer).findByRole('button', { name: 'Download the file' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.download).toBe('Administrators.xlsx');
    const [input, init] = fetchMock.mock.calls.find(([url]) => String(url).includes('downloadExcel'))!;
    expect(new URL(String(input)).searchParams.get('url')).toBe('f-1');
    expect(new Headers(init?.headers).get('Authorization')).toBe('DPoP access-1');
    expect(new Headers(init?.headers).get('DPoP')).toBe(`fake-proof GET ${new URL(String(input)).origin}${new URL(String(input)).pathname}`);
    expect(within(drawer).queryByRole('button', { name: 'Open Result' })).not.toBeInTheDocument();

    expired = true;
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Download the file' }));
    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent('The file could not be downloaded');
    expect(alert).toHaveTextContent('This file has expired');
    expect(saved).toHaveLength(1);
  });

  it('shows a failed job’s message as an error banner, with no result to open', async () => {
    const { routes } = fakeNotificationsApi([note({ type: 'BulkInsertPermisionRequestForTenant', description: null, data: { success: false, messageError: 'The file could not be read' } })]);
    const { drawer } = await openDrawer(routes);

    const banner = await within(drawer).findByRole('alert');
    expect(banner).toHaveTextContent('An error occurred');
    expect(banner).toHaveTextContent('The file could not be read');
    expect(within(drawer).queryByRole('button', { name: 'Open Result' })).not.toBeInTheDocument();
  });

  it('shows the processes still running above the notifications', async () => {
    const { routes } = fakeNotificationsApi([note()], { tasks: [task(), task({ id: 't-2', type: 'BulkInsertUserAndPermisionRequestForTenant', status: 'Queued', total: null })] });
    const { drawer, fetchMock } = await openDrawer(routes);

    const running = await within(drawer).findByRole('region', { name: 'In progress' });
    expect(within(running).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Access requests import in progress · 3 of 10 done',
      'New users and access requests import waiting to start',
    ]);
    expect(requested(fetchMock)).toContain(TASKS);
  });

  it('says so, in the server’s words, when the list cannot be read', async () => {
    const { drawer } = await openDrawer({
      'GET /api/v1/admin/notifications/active': jsonResponse({ code: 'errors.service_unavailable', message: 'The service is temporarily unavailable' }, 503),
      [TASKS]: { items: [], count: 0 },
    });
    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent('The notifications could not be loaded.');
    expect(alert).toHaveTextContent('The service is temporarily unavailable');
  });

  it('speaks the user’s language', async () => {
    const french = await createTestI18n('fr');
    stubApi(fakeNotificationsApi([note({ type: 'BulkInsertPermisionRequestForTenant', data: importResult })]).routes);
    renderSignedIn(<NotificationsBell />, { i18n: french });
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications : 1 notification non lue' }));
    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(await within(drawer).findByText('Import de demandes d’accès')).toBeInTheDocument();
    expect(within(drawer).getByText('Importés : 2 sur 4')).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Ouvrir le résultat' })).toBeInTheDocument();
  });
});
