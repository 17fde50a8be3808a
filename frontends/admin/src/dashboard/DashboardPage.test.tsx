import { screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage } from '../test-utils';
import { DashboardPage } from './DashboardPage';

// jsdom has no canvas (the reports are tested in reports/UsageReports.test.tsx).
vi.mock('./reports/ReportChart', () => ({ default: () => null }));

const BASE = 'GET /api/v1/admin/dashboard/base';
const COUNTS = { usersCount: 1234, groupsCount: 56, appsCount: 7, areasCount: 3, tenantsCount: 89 };
/** The usage reports, with nothing to draw. */
const EMPTY_REPORTS = {
  'GET /api/v1/admin/dashboard/loginLastHours': [],
  'GET /api/v1/admin/dashboard/adminPerApp': [],
  'GET /api/v1/admin/dashboard/globalAdminPerAreas': [],
  'GET /api/v1/admin/dashboard/connectedPerApp': [],
};

function renderDashboard(options: Parameters<typeof renderPage>[1] = {}) {
  return renderPage(<DashboardPage />, { namespaces: ['admin'], ...options, api: { [BASE]: COUNTS, ...EMPTY_REPORTS, ...options.api } });
}

function tile(name: RegExp | string) {
  return screen.getByRole('link', { name });
}

describe('DashboardPage', () => {
  it('wraps a long German tile title inside its card, hyphenated rather than split anywhere', async () => {
    await renderDashboard({ language: 'de', roles: ['God'] });
    const title = await screen.findByText('Sicherheitskonfiguration');
    expect(title).toHaveClass('admin-tile__title');

    const dashboardCss = readFileSync(`${import.meta.dirname}/dashboard.css`, 'utf8');
    const rule = (selector: string) => {
      const start = dashboardCss.indexOf(`${selector} {`);
      expect(start, selector).toBeGreaterThanOrEqual(0);
      return dashboardCss.slice(start, dashboardCss.indexOf('}', start));
    };
    expect(rule('.admin-tile')).toContain('grid-template-columns: auto minmax(0, 1fr);');
    expect(rule('.admin-tile__title')).toMatch(/min-width: 0;[\s\S]*overflow-wrap: break-word;[\s\S]*hyphens: auto;/);
    expect(rule('.admin-tile__title')).not.toMatch(/anywhere|break-all/);
    expect(document.documentElement.lang).toBe('de');
  });

  it('welcomes the user by full name', async () => {
    await renderDashboard({ me: { firstName: 'Grace', lastName: 'Hopper' } });

    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Grace Hopper' })).toBeInTheDocument();
  });

  it('falls back to the user name when the user has no name', async () => {
    await renderDashboard({ me: { firstName: null, lastName: ' ', userName: 'ghopper' } });

    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, ghopper' })).toBeInTheDocument();
  });

  it('shows the counts in tiles linking to their pages', async () => {
    await renderDashboard();

    expect(await screen.findByRole('link', { name: 'Users 1,234' })).toHaveAttribute('href', '/users');
    expect(tile('Groups 56')).toHaveAttribute('href', '/groups');
    expect(tile('Applications 7')).toHaveAttribute('href', '/applications');
    expect(tile('Areas 3')).toHaveAttribute('href', '/areas');
    expect(tile('Tenants 89')).toHaveAttribute('href', '/tenants');
  });

  it('formats the counts in the reader’s language', async () => {
    await renderDashboard({ language: 'fr' });

    expect(await screen.findByTestId('count-users')).toHaveTextContent(/^1\s234$/);
  });

  it('shows skeletons while the counts load, then the numbers', async () => {
    let answer: ((response: Response) => void) | undefined;
    await renderDashboard({ api: { [BASE]: () => new Promise<Response>((resolve) => (answer = resolve)) } });
    await waitFor(() => expect(answer).toBeDefined());

    const counts = screen.getByRole('region', { name: 'Summary' });
    expect(counts).toHaveAttribute('aria-busy', 'true');
    expect(counts.querySelectorAll('.ant-skeleton')).toHaveLength(5);
    expect(within(counts).queryByText('1,234')).not.toBeInTheDocument();

    answer!(jsonResponse(COUNTS));

    expect(await within(counts).findByText('1,234')).toBeInTheDocument();
    expect(counts).toHaveAttribute('aria-busy', 'false');
    expect(counts.querySelectorAll('.ant-skeleton')).toHaveLength(0);
  });

  it('shows the error banner with the server message when the counts fail', async () => {
    await renderDashboard({
      api: { [BASE]: jsonResponse({ code: 'errors.internal', message: 'Base de données indisponible', errors: [], requestId: 'r' }, 500) },
    });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An error occurred');
    expect(alert).toHaveTextContent('Base de données indisponible');
    // The tiles still lead to their pages.
    expect(tile('Users')).toHaveAttribute('href', '/users');
  });

  it('shows the 403 message when the API refuses the counts', async () => {
    await renderDashboard({ api: { [BASE]: jsonResponse({ code: 'errors.forbidden', message: 'Forbidden' }, 403) } });

    expect(await screen.findByRole('alert')).toHaveTextContent("You don't have permission to perform this action");
  });

  it('offers an Administrator the tiles without counts, and not the God ones', async () => {
    await renderDashboard({ roles: ['Administrator'] });

    const shortcuts = within(screen.getByRole('region', { name: 'Other screens' }));
    expect(shortcuts.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/permissions',
      '/pats',
      '/logs',
      '/twomodeauth',
    ]);
    expect(shortcuts.getByRole('link', { name: /^Personal Access Tokens/ })).toBeInTheDocument();
    expect(shortcuts.getByRole('link', { name: /^MFA Configuration/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Security Configuration/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /PATS Control/ })).not.toBeInTheDocument();
  });

  it('offers God also Security Configuration and PATS Control', async () => {
    await renderDashboard({ roles: ['God'] });

    const shortcuts = within(screen.getByRole('region', { name: 'Other screens' }));
    expect(shortcuts.getByRole('link', { name: /^Security Configuration/ })).toHaveAttribute('href', '/securityConfig');
    expect(shortcuts.getByRole('link', { name: /^PATS Control/ })).toHaveAttribute('href', '/control-pats');
    expect(shortcuts.getAllByRole('link')).toHaveLength(6);
  });

  it('offers God no Identify As while the deployment has not enabled it: only Background jobs and the reports’ Refresh and Zoom', async () => {
    await renderDashboard({ roles: ['God'] });

    const [jobs, ...buttons] = screen.getAllByRole('button');
    expect(jobs).toHaveAccessibleName('Background jobs');
    expect(buttons).toHaveLength(8);
    for (const button of buttons) expect(button.getAttribute('aria-label')).toMatch(/^(Refresh|Zoom in on) /);
    expect(screen.queryByText(/Identify As/i)).not.toBeInTheDocument();
  });

  it('shows the usage reports below the tiles', async () => {
    await renderDashboard();

    const reports = screen.getByRole('region', { name: 'Usage reports' });
    expect(within(reports).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Successful sign-ins per hour',
      'Users connected per application',
      'Global administrators per application',
      'Global administrators per area',
    ]);
    const shortcuts = screen.getByRole('region', { name: 'Other screens' });
    expect(shortcuts.compareDocumentPosition(reports) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
