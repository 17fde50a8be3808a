import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../test-utils';
import { bodyRows, choose, list, localDateTime, PAGE_TEST_TIMEOUT, queriesTo, type } from '../directory/test-helpers';
import { disabledEnd, disabledStart, fromApiDate, rangeEnd, rangeStart, toApiDate } from './date-range';
import type { AuthenticationLog, ExternalApiAccessLog, SessionLog, SystemLog } from './logs-api';
import LogsPage, { LOGS_TAB_KEY } from './LogsPage';

const NAMESPACES = ['admin', 'directory', 'logs'] as const;
const AUTHENTICATION = 'GET /api/v1/admin/logs/authenticationlogs';
const AUTHENTICATION_EXPORT = 'GET /api/v1/admin/logs/authenticationlogs/export';
const SYSTEM = 'GET /api/v1/admin/logs/systemlog';
const SYSTEM_EXPORT = 'GET /api/v1/admin/logs/systemlog/export';
const SESSION = 'GET /api/v1/admin/logs/sessionlog';
const EXTERNAL = 'GET /api/v1/admin/logs/externalApiAccessLog';

const signIn = (overrides: Partial<AuthenticationLog> & Pick<AuthenticationLog, 'id' | 'result'>): AuthenticationLog => ({
  date: '2025-03-01T10:00:00.000Z',
  userId: 'u1',
  userName: 'ann@example.com',
  reason: null,
  authenticationProvider: 'Local',
  returnUrl: null,
  applicationName: 'crm',
  ip: '10.0.0.1',
  userAgent: null,
  actorId: null,
  actorName: null,
  ...overrides,
});
const locked = signIn({ id: '2', result: 'FullUserLocked', date: '2025-03-02T08:30:00.000Z', reason: 'Permanently locked', userAgent: 'Firefox 140' });
const success = signIn({ id: '1', result: 'Success' });

const change: SystemLog = {
  id: '7',
  date: '2025-04-02T09:00:00.000Z',
  userId: 'admin-1',
  userName: 'ada@example.com',
  tenantId: 't1',
  tenantName: 'Acme',
  operation: 'Permission',
  metadata: { action: 'grant', targetUserName: 'bob@example.com', roles: ['Reader'] },
  actorId: null,
  actorName: null,
};
const session: SessionLog = {
  id: '9',
  date: '2025-05-01T09:00:00.000Z',
  userId: 'u1',
  userName: 'ann@example.com',
  roles: ['Reader', 'Writer'],
  applicationName: 'erp',
  tenantId: 't1',
  tenantName: 'Acme',
  actorId: null,
  actorName: null,
};
const call: ExternalApiAccessLog = {
  id: '11',
  date: '2025-06-01T09:00:00.000Z',
  ip: '10.0.0.2',
  userId: null,
  userName: 'robot@example.com',
  apiEntry: 'GetRoles',
  metadata: { application: 'crm' },
  actorId: null,
  actorName: null,
};

const TENANTS = { 'GET /api/v1/admin/tenants': list([{ id: 't1', title: 'Acme', areaName: 'North' }]) };
const USERS = { 'GET /api/v1/admin/users': list([]) };

function renderLogs(options: { roles?: string[]; api?: ApiRoutes; route?: string } = {}) {
  return renderPage(<LogsPage />, {
    route: options.route ?? '/logs',
    pattern: '/logs',
    roles: options.roles,
    namespaces: [...NAMESPACES],
    api: {
      [AUTHENTICATION]: list([locked, success]),
      [SYSTEM]: list([change]),
      [SESSION]: list([session]),
      [EXTERNAL]: list([call]),
      ...TENANTS,
      ...USERS,
      ...options.api,
    },
  });
}

/** The last query the page sent to `route`. */
const lastQuery = (fetchMock: Awaited<ReturnType<typeof renderLogs>>['fetchMock'], route: string) => queriesTo(fetchMock, route).at(-1);

/** Types a date into a picker (DD-MM-YYYY) and confirms it. */
function pickDate(label: string, value: string) {
  const input = screen.getByRole('textbox', { name: label });
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  type(input, value);
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
}

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('LogsPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it.each([['Manager'], ['TenantAdministrator'], ['AreaAdministrator'], ['God']])('lets a %s in', async (role) => {
    await renderLogs({ roles: [role] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Logs' })).toBeInTheDocument();
    expect(await screen.findByText('Permanent lock')).toBeInTheDocument();
  });

  it('opens on the Authentication Logs, newest first, ten a page, a permanent lock shown as such', async () => {
    const { fetchMock } = await renderLogs();

    expect(await screen.findByRole('tab', { name: 'Authentication Logs', selected: true })).toBeInTheDocument();
    for (const name of ['System Logs', 'Session Logs', 'External Api Access Log']) expect(screen.getByRole('tab', { name })).toBeInTheDocument();
    await screen.findByText('Permanent lock');
    const [first, second] = bodyRows();
    expect(first).toHaveTextContent(localDateTime(locked.date));
    expect(first).toHaveTextContent('ann@example.com');
    expect(first).toHaveTextContent('Permanently locked');
    expect(second).toHaveTextContent('Success');
    expect(queriesTo(fetchMock, AUTHENTICATION)[0]).toEqual({ skip: '0', top: '10', orderBy: 'date desc' });
    expect(screen.getByRole('columnheader', { name: /Date/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('filters the sign-ins by result and provider, and searches user names', async () => {
    const { fetchMock } = await renderLogs();
    await screen.findByText('Permanent lock');

    await choose('Result', 'Permanent lock');
    await waitFor(() => expect(lastQuery(fetchMock, AUTHENTICATION)).toMatchObject({ result: 'FullUserLocked', skip: '0' }));
    await choose('Provider', 'Microsoft');
    await waitFor(() => expect(lastQuery(fetchMock, AUTHENTICATION)).toMatchObject({ result: 'FullUserLocked', provider: 'Microsoft' }));
    type(screen.getByRole('searchbox', { name: 'Search user' }), 'ann');
    await waitFor(() => expect(lastQuery(fetchMock, AUTHENTICATION)).toMatchObject({ $search: 'ann', provider: 'Microsoft' }));
  });

  it('sends a picked range as YYYY-MM-DD HH:mm:ss in UTC, from the start of the first day to the end of the last', async () => {
    const { fetchMock } = await renderLogs();
    await screen.findByText('Permanent lock');

    pickDate('From', '01-03-2025');
    await waitFor(() => expect(lastQuery(fetchMock, AUTHENTICATION)).toMatchObject({ startDate: toApiDate(dayjs('2025-03-01T00:00:00')) }));
    pickDate('To', '03-03-2025');
    await waitFor(() =>
      expect(lastQuery(fetchMock, AUTHENTICATION)).toMatchObject({
        startDate: toApiDate(dayjs('2025-03-01T00:00:00')),
        endDate: toApiDate(dayjs('2025-03-03T23:59:59')),
      }),
    );
  });

  it('refuses in the To picker the days before the start, and in the From picker the days after the end', async () => {
    await renderLogs();
    await screen.findByText('Permanent lock');
    pickDate('From', '10-03-2025');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'From' })).toHaveValue('10-03-2025'));

    fireEvent.click(screen.getByRole('textbox', { name: 'To' }));
    const cell = (date: string) => document.querySelector<HTMLElement>(`.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) td[title="${date}"]`);
    // The To picker opens on the month of the start.
    await waitFor(() => expect(cell('2025-03-09')).not.toBeNull());
    expect(cell('2025-03-09')).toHaveClass('ant-picker-cell-disabled');
    expect(cell('2025-03-10')).not.toHaveClass('ant-picker-cell-disabled');
    expect(cell('2025-03-31')).not.toHaveClass('ant-picker-cell-disabled');
    // With an end picked, the From picker refuses the days after it.
    fireEvent.click(cell('2025-03-20')!);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'To' })).toHaveValue('20-03-2025'));
    fireEvent.click(screen.getByRole('textbox', { name: 'From' }));
    await waitFor(() => expect(cell('2025-03-21')).toHaveClass('ant-picker-cell-disabled'));
    expect(cell('2025-03-20')).not.toHaveClass('ant-picker-cell-disabled');
  });

  it('queues the export of the sign-ins as filtered and sorted, without paging, and says it runs in the background', async () => {
    const download = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    const { fetchMock } = await renderLogs({ api: { [AUTHENTICATION_EXPORT]: () => jsonResponse({ jobId: 'job-3' }, 202) } });
    await screen.findByText('Permanent lock');
    await choose('Result', 'Failure');
    await waitFor(() => expect(lastQuery(fetchMock, AUTHENTICATION)).toMatchObject({ result: 'Failure' }));

    fireEvent.click(screen.getByRole('button', { name: /Export to Excel/ }));

    expect(await screen.findByText('Operation Completed Successfully')).toBeInTheDocument();
    expect(screen.getByText('Your operation will be processed in background.')).toBeInTheDocument();
    expect(queriesTo(fetchMock, AUTHENTICATION_EXPORT)).toEqual([{ orderBy: 'date desc', result: 'Failure' }]);
    // The file comes later, through the notifications flyout.
    expect(download).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it('says why an export is refused', async () => {
    const refusal = { code: 'logs.export_too_large', message: 'These filters select 150000 rows, more than the 100000 an export may hold: narrow the dates or the filters', errors: [] };
    await renderLogs({ api: { [AUTHENTICATION_EXPORT]: () => jsonResponse(refusal, 400) } });
    await screen.findByText('Permanent lock');

    fireEvent.click(screen.getByRole('button', { name: /Export to Excel/ }));

    expect(await screen.findByText(refusal.message)).toBeInTheDocument();
  });

  it('shows the system log with its metadata as indented JSON in an opened row, and filters it', async () => {
    const { fetchMock } = await renderLogs({ route: '/logs?tab=system' });

    expect(await screen.findByRole('tab', { name: 'System Logs', selected: true })).toBeInTheDocument();
    const row = (await screen.findByText('Permission')).closest('tr')!;
    expect(row).toHaveTextContent('ada@example.com');
    expect(row).toHaveTextContent('Acme');
    fireEvent.click(within(row).getByRole('button', { name: /expand/i }));
    const json = await screen.findByText((_, element) => element?.tagName === 'PRE');
    expect(json.textContent).toBe(JSON.stringify(change.metadata, null, 2));
    expect(queriesTo(fetchMock, SYSTEM)[0]).toEqual({ skip: '0', top: '10', orderBy: 'date desc' });

    await choose('Operation', 'CreateUser');
    await waitFor(() => expect(lastQuery(fetchMock, SYSTEM)).toMatchObject({ operation: 'CreateUser' }));
    type(screen.getByRole('textbox', { name: 'Text in metadata' }), 'Zebra');
    await waitFor(() => expect(lastQuery(fetchMock, SYSTEM)).toMatchObject({ operation: 'CreateUser', intoMetadata: 'Zebra' }));
    await choose('Tenant concerned', 'Acme (North)');
    await waitFor(() => expect(lastQuery(fetchMock, SYSTEM)).toMatchObject({ metadataTenantId: 't1' }));
  });

  it('tags a row written while a God user was signed in as its user with who acted, in every tab', async () => {
    const acted = { actorId: 'god-1', actorName: 'Grace Odin' };
    await renderLogs({
      route: '/logs?tab=system',
      api: { [SYSTEM]: list([{ ...change, ...acted }, { ...change, id: '8', userName: 'bob@example.com' }]), [SESSION]: list([{ ...session, ...acted }]) },
    });

    const row = (await screen.findByText('Grace Odin on their behalf')).closest('tr')!;
    expect(row).toHaveTextContent('ada@example.com');
    expect(screen.getAllByText(/on their behalf/)).toHaveLength(1);
    fireEvent.click(screen.getByRole('tab', { name: 'Session Logs' }));
    expect((await screen.findByText('Grace Odin on their behalf')).closest('tr')).toHaveTextContent('ann@example.com');
  });

  it('says who acted in the reader\'s language', async () => {
    await renderPage(<LogsPage />, {
      route: '/logs',
      pattern: '/logs',
      language: 'fr',
      namespaces: [...NAMESPACES],
      api: { [AUTHENTICATION]: list([signIn({ id: '3', result: 'Unlocked', actorId: 'god-1', actorName: 'Grace Odin' })]), ...TENANTS, ...USERS },
    });
    expect(await screen.findByText('Grace Odin pour son compte')).toBeInTheDocument();
  });

  it('queues the export of the system log with its filters', async () => {
    const { fetchMock } = await renderLogs({ route: '/logs?tab=system', api: { [SYSTEM_EXPORT]: () => jsonResponse({ jobId: 'job-4' }, 202) } });
    await screen.findByText('Permission');
    await choose('Operation', 'Permission');
    await waitFor(() => expect(lastQuery(fetchMock, SYSTEM)).toMatchObject({ operation: 'Permission' }));

    fireEvent.click(screen.getByRole('button', { name: /Export to Excel/ }));

    expect(await screen.findByText('Operation Completed Successfully')).toBeInTheDocument();
    expect(screen.getByText('Your operation will be processed in background.')).toBeInTheDocument();
    expect(queriesTo(fetchMock, SYSTEM_EXPORT)).toEqual([{ orderBy: 'date desc', operation: 'Permission' }]);
  });

  it('offers the user concerned only to those who may look users up', async () => {
    await renderLogs({ route: '/logs?tab=system', roles: ['Manager'] });
    await screen.findByText('Permission');
    expect(screen.queryByRole('combobox', { name: 'User concerned' })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Tenant concerned' })).toBeInTheDocument();
  });

  it('remembers the tab for the browser tab, and offers no export where the spec has none', async () => {
    const { fetchMock } = await renderLogs();
    await screen.findByText('Permanent lock');

    fireEvent.click(screen.getByRole('tab', { name: 'Session Logs' }));

    expect(await screen.findByText('erp')).toBeInTheDocument();
    expect(sessionStorage.getItem(LOGS_TAB_KEY)).toBe('session');
    expect(screen.queryByRole('button', { name: /Export to Excel/ })).not.toBeInTheDocument();
    expect(queriesTo(fetchMock, SESSION)[0]).toEqual({ skip: '0', top: '10', orderBy: 'date desc' });
  });

  it('opens on the remembered tab', async () => {
    sessionStorage.setItem(LOGS_TAB_KEY, 'externalApiAccess');
    await renderLogs();
    expect(await screen.findByRole('tab', { name: 'External Api Access Log', selected: true })).toBeInTheDocument();
    expect(await screen.findByText('GetRoles')).toBeInTheDocument();
  });

  it('filters the sessions by tenant, with the tenants below it on request', async () => {
    const { fetchMock } = await renderLogs({ route: '/logs?tab=session' });
    const row = (await screen.findByText('erp')).closest('tr')!;
    expect(row).toHaveTextContent('Reader');
    expect(row).toHaveTextContent('Writer');
    const children = screen.getByRole('checkbox', { name: 'Include child tenants' });
    expect(children).toBeDisabled();

    await choose('Tenant', 'Acme (North)');
    await waitFor(() => expect(lastQuery(fetchMock, SESSION)).toMatchObject({ tenant: 't1' }));
    expect(children).toBeEnabled();
    fireEvent.click(children);
    await waitFor(() => expect(lastQuery(fetchMock, SESSION)).toMatchObject({ tenant: 't1', includeHierarchy: 'true' }));
  });

  it('filters the external API calls by event and address, and shows their metadata', async () => {
    const { fetchMock } = await renderLogs({ route: '/logs?tab=externalApiAccess' });
    const row = (await screen.findByText('GetRoles')).closest('tr')!;
    expect(row).toHaveTextContent('10.0.0.2');
    fireEvent.click(within(row).getByRole('button', { name: /expand/i }));
    expect((await screen.findByText((_, element) => element?.tagName === 'PRE')).textContent).toBe(JSON.stringify(call.metadata, null, 2));

    await choose('Event', 'LockUser');
    await waitFor(() => expect(lastQuery(fetchMock, EXTERNAL)).toMatchObject({ apiEntry: 'LockUser' }));
    type(screen.getByRole('textbox', { name: 'IP address' }), '10.0.0.2');
    await waitFor(() => expect(lastQuery(fetchMock, EXTERNAL)).toMatchObject({ apiEntry: 'LockUser', ip: '10.0.0.2' }));
  });

  it('is translated', async () => {
    await renderPage(<LogsPage />, {
      route: '/logs',
      pattern: '/logs',
      language: 'fr',
      namespaces: [...NAMESPACES],
      api: { [AUTHENTICATION]: list([locked]), ...TENANTS },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Journaux' })).toBeInTheDocument();
    expect(await screen.findByText('Blocage permanent')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Journaux système' })).toBeInTheDocument();
  });
});

describe('the date range', () => {
  const today = dayjs('2025-03-20T12:00:00');

  it('refuses start days after the end or after today', () => {
    const end = dayjs('2025-03-10');
    expect(disabledStart(dayjs('2025-03-10'), end, today)).toBe(false);
    expect(disabledStart(dayjs('2025-03-11'), end, today)).toBe(true);
    expect(disabledStart(dayjs('2025-03-20'), null, today)).toBe(false);
    expect(disabledStart(dayjs('2025-03-21'), null, today)).toBe(true);
  });

  it('refuses end days before the start or after today', () => {
    const start = dayjs('2025-03-10');
    expect(disabledEnd(dayjs('2025-03-09'), start, today)).toBe(true);
    expect(disabledEnd(dayjs('2025-03-10'), start, today)).toBe(false);
    expect(disabledEnd(dayjs('2025-03-21'), start, today)).toBe(true);
  });

  it('sends the first instant of the first day and the last second of the last, in UTC, and reads them back', () => {
    const day = dayjs('2025-03-10T15:30:00');
    expect(rangeStart(day)).toBe(new Date(2025, 2, 10, 0, 0, 0).toISOString().slice(0, 19).replace('T', ' '));
    expect(rangeEnd(day)).toBe(new Date(2025, 2, 10, 23, 59, 59).toISOString().slice(0, 19).replace('T', ' '));
    expect(rangeStart(day)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(fromApiDate(rangeStart(day))!.format('DD-MM-YYYY')).toBe('10-03-2025');
    expect(fromApiDate(rangeEnd(day))!.format('DD-MM-YYYY')).toBe('10-03-2025');
    expect(fromApiDate('not a date')).toBeNull();
    expect(fromApiDate(undefined)).toBeNull();
  });
});
