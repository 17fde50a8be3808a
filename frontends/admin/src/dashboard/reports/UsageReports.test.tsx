import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { choose, dialogWith, queriesTo, sentTo, type } from '../../features/directory/test-helpers';
import { jsonResponse, renderPage, type ApiRoutes } from '../../test-utils';
import { DashboardPage } from '../DashboardPage';
import type { ReportChartProps } from './ReportChart';

// jsdom has no canvas: the chart is replaced by a probe that shows what it was handed.
vi.mock('./ReportChart', () => ({
  default: (props: ReportChartProps) => <div data-testid="chart" data-kind={props.kind} data-height={props.height} data-points={JSON.stringify(props.data)} />,
}));

const LOGINS = 'GET /api/v1/admin/dashboard/loginLastHours';
const PER_APP = 'GET /api/v1/admin/dashboard/adminPerApp';
const PER_AREA = 'GET /api/v1/admin/dashboard/globalAdminPerAreas';
const CONNECTED = 'GET /api/v1/admin/dashboard/connectedPerApp';
const TENANTS = 'GET /api/v1/admin/tenants';

/** Nine hours ending with the one under way, as the API answers them. */
const HOURS = Array.from({ length: 9 }, (_, i) => new Date(Date.UTC(2025, 10, 24, 2 + i)).toISOString());
const LOGIN_COUNTS = [3, 0, 0, 1, 0, 0, 0, 0, 2];

const PER_APP_ROWS = [
  { applicationId: 'crm', applicationName: 'crm', displayName: 'Customer relations', count: 4 },
  { applicationId: '1', applicationName: 'identity', displayName: 'Identity', count: 2 },
];
const AREA_ROWS = [
  { areaId: 'a-north', areaName: 'North', count: 3 },
  { areaId: 'a-south', areaName: 'South', count: 1 },
];
const CONNECTED_ROWS = [{ applicationName: 'crm', displayName: 'Customer relations', count: 7 }];

const REPORTS: ApiRoutes = {
  'GET /api/v1/admin/dashboard/base': { usersCount: 1, groupsCount: 1, appsCount: 1, areasCount: 1, tenantsCount: 1 },
  [LOGINS]: HOURS.map((hour, i) => ({ hour, count: LOGIN_COUNTS[i] })),
  [PER_APP]: PER_APP_ROWS,
  [PER_AREA]: AREA_ROWS,
  [CONNECTED]: CONNECTED_ROWS,
};

/** "09:00" on the reader's clock, computed apart from the page's own formatting. */
const localHour = (iso: string) => `${String(new Date(iso).getHours()).padStart(2, '0')}:${String(new Date(iso).getMinutes()).padStart(2, '0')}`;

function renderReports(api: ApiRoutes = {}, language?: 'fr') {
  return renderPage(<DashboardPage />, { namespaces: ['admin'], api: { ...REPORTS, ...api }, language });
}

const report = (name: string) => screen.getByRole('region', { name });

/** What the chart of `container` was handed. */
async function chartIn(container: HTMLElement) {
  const chart = await within(container).findByTestId('chart');
  return { kind: chart.dataset.kind, height: Number(chart.dataset.height), points: JSON.parse(chart.dataset.points!) as Array<{ label: string; count: number }> };
}

describe('dashboard usage reports', () => {
  it('draws sign-ins per hour as a line of nine points on the reader’s clock, zeros included', async () => {
    await renderReports();

    const chart = await chartIn(report('Successful sign-ins per hour'));
    expect(chart.kind).toBe('line');
    expect(chart.points).toEqual(HOURS.map((hour, i) => ({ label: localHour(hour), count: LOGIN_COUNTS[i] })));
    expect(within(report('Successful sign-ins per hour')).getByText('last 9 hours')).toBeInTheDocument();
  });

  it('draws administrators per application and per area, and users connected per application, as bars', async () => {
    await renderReports();

    const perApp = await chartIn(report('Global administrators per application'));
    expect(perApp).toMatchObject({ kind: 'bar', points: [{ label: 'Customer relations', count: 4 }, { label: 'Identity', count: 2 }] });
    const perArea = await chartIn(report('Global administrators per area'));
    expect(perArea).toMatchObject({ kind: 'bar', points: [{ label: 'North', count: 3 }, { label: 'South', count: 1 }] });
    const connected = await chartIn(report('Users connected per application'));
    expect(connected).toMatchObject({ kind: 'bar', points: [{ label: 'Customer relations', count: 7 }] });
    expect(within(report('Users connected per application')).getByText('last 30 minutes')).toBeInTheDocument();
  });

  it('gives screen readers the figures of each chart as a table', async () => {
    await renderReports();

    const table = await within(report('Global administrators per area')).findByRole('table', { name: 'Global administrators per area' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Area', 'Administrators']);
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['North3', 'South1']);
  });

  it('shows an empty state, and no chart, when there is nothing to draw', async () => {
    await renderReports({ [LOGINS]: HOURS.map((hour) => ({ hour, count: 0 })), [CONNECTED]: [] });

    expect(await within(report('Successful sign-ins per hour')).findByText('No successful sign-in in the last 9 hours')).toBeInTheDocument();
    expect(within(report('Users connected per application')).getByText('Nobody has connected to an application in the last 30 minutes')).toBeInTheDocument();
    expect(within(report('Successful sign-ins per hour')).queryByTestId('chart')).not.toBeInTheDocument();
    expect(within(report('Users connected per application')).queryByTestId('chart')).not.toBeInTheDocument();
  });

  it('shows the server’s error in the widget, with a retry that asks again', async () => {
    let fail = true;
    const { fetchMock } = await renderReports({
      [PER_APP]: () => (fail ? jsonResponse({ code: 'errors.internal', message: 'Base indisponible', errors: [], requestId: 'r' }, 500) : jsonResponse(PER_APP_ROWS)),
    });

    const widget = report('Global administrators per application');
    const alert = await within(widget).findByRole('alert');
    expect(alert).toHaveTextContent('An error occurred');
    expect(alert).toHaveTextContent('Base indisponible');
    // The other widgets are not affected.
    expect(await chartIn(report('Users connected per application'))).toMatchObject({ kind: 'bar' });

    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect((await chartIn(widget)).points).toEqual([
      { label: 'Customer relations', count: 4 },
      { label: 'Identity', count: 2 },
    ]);
    expect(sentTo(fetchMock, PER_APP)).toHaveLength(2);
  });

  it('refreshes a widget from the API when asked', async () => {
    let count = 7;
    const { fetchMock } = await renderReports({ [CONNECTED]: () => jsonResponse([{ applicationName: 'crm', displayName: 'Customer relations', count }]) });
    const widget = report('Users connected per application');
    expect((await chartIn(widget)).points).toEqual([{ label: 'Customer relations', count: 7 }]);

    count = 9;
    fireEvent.click(within(widget).getByRole('button', { name: 'Refresh Users connected per application' }));

    await waitFor(async () => expect((await chartIn(widget)).points).toEqual([{ label: 'Customer relations', count: 9 }]));
    expect(sentTo(fetchMock, CONNECTED)).toHaveLength(2);
    // Only that widget asked again.
    expect(sentTo(fetchMock, LOGINS)).toHaveLength(1);
  });

  it('zooms a report into a large dialog with the same chart', async () => {
    await renderReports();
    const widget = report('Successful sign-ins per hour');
    const small = await chartIn(widget);

    fireEvent.click(within(widget).getByRole('button', { name: 'Zoom in on Successful sign-ins per hour' }));

    const dialog = await dialogWith('Successful sign-ins per hour (last 9 hours)');
    const large = await chartIn(dialog);
    expect(large.points).toEqual(small.points);
    expect(large.height).toBeGreaterThan(small.height);
    expect(within(dialog).getByRole('button', { name: /Refresh$/ })).toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('queues the full admin report from the zoomed administrators-per-application view, once', async () => {
    const { fetchMock } = await renderReports({ 'POST /api/v1/admin/dashboard/adminReport': () => jsonResponse({ jobId: 'job-1' }, 202) });
    const widget = report('Global administrators per application');
    await chartIn(widget);
    expect(within(widget).queryByRole('button', { name: 'Generate full admin Report' })).not.toBeInTheDocument();

    fireEvent.click(within(widget).getByRole('button', { name: 'Zoom in on Global administrators per application' }));
    const dialog = await dialogWith('Global administrators per application');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Generate full admin Report' }));

    expect(await within(dialog).findByText('Operation Completed Successfully')).toBeInTheDocument();
    expect(within(dialog).getByText('Your operation will be processed in background.')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'POST /api/v1/admin/dashboard/adminReport')).toHaveLength(1);
    // Queued once: the button rests until the dialog opens again.
    expect(within(dialog).getByRole('button', { name: 'Generate full admin Report' })).toBeDisabled();
  });

  it('says why the full admin report could not be queued', async () => {
    await renderReports({
      'POST /api/v1/admin/dashboard/adminReport': () =>
        jsonResponse({ code: 'errors.service_unavailable', message: 'The service is temporarily unavailable', errors: [], requestId: 'r' }, 503),
    });
    const widget = report('Global administrators per application');
    await chartIn(widget);
    fireEvent.click(within(widget).getByRole('button', { name: 'Zoom in on Global administrators per application' }));
    const dialog = await dialogWith('Global administrators per application');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Generate full admin Report' }));

    expect(await within(dialog).findByText('The service is temporarily unavailable')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Generate full admin Report' })).toBeEnabled();
  });

  it('filters administrators per area by entity and application in the zoomed view only', async () => {
    const { fetchMock } = await renderReports({
      [TENANTS]: (request: Request) => {
        const search = new URL(request.url).searchParams.get('$search');
        const items = search === 'Par' ? [{ id: 't-paris', title: 'Paris', areaName: 'North' }] : [];
        return jsonResponse({ items, count: items.length });
      },
      [PER_AREA]: (request: Request) => {
        const query = new URL(request.url).searchParams;
        return jsonResponse(query.get('tenant') === 't-paris' ? [{ areaId: 'a-north', areaName: 'North', count: 5 }] : AREA_ROWS);
      },
    });
    const widget = report('Global administrators per area');
    await chartIn(widget);
    expect(within(widget).queryByRole('combobox')).not.toBeInTheDocument();

    fireEvent.click(within(widget).getByRole('button', { name: 'Zoom in on Global administrators per area' }));
    const dialog = await dialogWith('Global administrators per area');
    // The filters come with the zoomed view.
    await within(dialog).findByRole('combobox', { name: 'Application' });

    // The applications offered are those with an Administrator role.
    await choose('Application', 'Customer relations', dialog);
    await waitFor(() => expect(queriesTo(fetchMock, PER_AREA)).toContainEqual({ application: 'crm' }));

    type(within(dialog).getByRole('combobox', { name: 'Entity' }), 'Par');
    await waitFor(() => expect(queriesTo(fetchMock, TENANTS)).toContainEqual({ $search: 'Par', top: '50' }));
    await choose('Entity', 'Paris (North)', dialog);

    await waitFor(() => expect(queriesTo(fetchMock, PER_AREA)).toContainEqual({ tenant: 't-paris', application: 'crm' }));
    await waitFor(async () => expect((await chartIn(dialog)).points).toEqual([{ label: 'North', count: 5 }]));
    // The card keeps the unfiltered figures.
    expect((await chartIn(widget)).points).toEqual([
      { label: 'North', count: 3 },
      { label: 'South', count: 1 },
    ]);
  });

  it('speaks the reader’s language', async () => {
    await renderReports({}, 'fr');

    expect(await screen.findByRole('region', { name: 'Connexions réussies par heure' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Administrateurs globaux par zone' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Agrandir Utilisateurs connectés par application' })).toBeInTheDocument();
  });
});
