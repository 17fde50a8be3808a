import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage } from '../test-utils';
import { DashboardPage } from './DashboardPage';

// jsdom has no canvas (the reports are tested in reports/UsageReports.test.tsx).
vi.mock('./reports/ReportChart', () => ({ default: () => null }));

const LINK = 'POST /api/v1/admin/jobs/dashboard-link';
const URL_WITH_CODE = '/api/v1/admin/jobs/dashboard?code=Abc_123-xyz';
const QUIET = {
  'GET /api/v1/admin/dashboard/base': { usersCount: 0, groupsCount: 0, appsCount: 0, areasCount: 0, tenantsCount: 0 },
  'GET /api/v1/admin/dashboard/loginLastHours': [],
  'GET /api/v1/admin/dashboard/adminPerApp': [],
  'GET /api/v1/admin/dashboard/globalAdminPerAreas': [],
  'GET /api/v1/admin/dashboard/connectedPerApp': [],
};

/** A tab as window.open answers it: what the console does to it is recorded. */
function fakeTab() {
  return { opener: window as unknown, location: { replace: vi.fn() }, close: vi.fn() };
}

function renderDashboard(options: Parameters<typeof renderPage>[1] = {}) {
  return renderPage(<DashboardPage />, { namespaces: ['admin'], ...options, api: { ...QUIET, ...options.api } });
}

const jobsButton = (name = 'Background jobs') => screen.getByRole('button', { name });

describe('DashboardPage: the Background jobs button', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('opens a blank tab within the click, then sends it to the one-time link, its opener cleared', async () => {
    const tab = fakeTab();
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    let answer: ((response: Response) => void) | undefined;
    const { fetchMock } = await renderDashboard({ roles: ['Administrator'], api: { [LINK]: () => new Promise<Response>((resolve) => (answer = resolve)) } });

    fireEvent.click(jobsButton());

    // Synchronously, before the API has answered: a tab opened later is a blocked pop-up.
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBe(null);
    expect(tab.location.replace).not.toHaveBeenCalled();
    await waitFor(() => expect(answer).toBeDefined());
    const request = fetchMock.mock.calls.map(([input]) => input as Request).find((r) => r.url.endsWith('/jobs/dashboard-link'))!;
    expect(request.method).toBe('POST');
    expect(request.headers.get('Authorization')).toMatch(/^DPoP /);
    expect(request.headers.get('DPoP')).toMatch(/^fake-proof POST http:\/\/localhost:3000\/.*\/jobs\/dashboard-link$/);

    await act(async () => answer!(jsonResponse({ url: URL_WITH_CODE })));

    await waitFor(() => expect(tab.location.replace).toHaveBeenCalledWith(new URL(URL_WITH_CODE, window.location.origin).href));
    expect(tab.close).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('closes the tab and shows the error when the API refuses the link', async () => {
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    await renderDashboard({
      roles: ['God'],
      api: { [LINK]: jsonResponse({ code: 'errors.service_unavailable', message: 'Le service est temporairement indisponible', errors: [], requestId: 'r' }, 503) },
    });

    fireEvent.click(jobsButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('Le service est temporairement indisponible');
    expect(tab.close).toHaveBeenCalledTimes(1);
    expect(tab.location.replace).not.toHaveBeenCalled();
  });

  it('asks nothing of the API when the browser blocks the tab, and says how to allow it', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    const { fetchMock } = await renderDashboard({ roles: ['Administrator'], api: { [LINK]: { url: URL_WITH_CODE } } });

    fireEvent.click(jobsButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('The browser blocked the new tab. Allow pop-ups for this site and try again.');
    expect(fetchMock.mock.calls.some(([input]) => String((input as Request).url ?? input).includes('dashboard-link'))).toBe(false);
  });

  it('is offered to Administrator and God only', async () => {
    for (const roles of [['TenantAdministrator'], ['Manager'], ['AreaAdministrator']]) {
      const { unmount } = await renderDashboard({ roles });
      expect(screen.queryByRole('button', { name: 'Background jobs' }), roles.join()).not.toBeInTheDocument();
      unmount();
    }
    const { unmount } = await renderDashboard({ roles: ['God'] });
    expect(jobsButton()).toBeInTheDocument();
    unmount();
  });

  it('speaks every language of the console', async () => {
    const labels = { fr: 'Traitements en arrière-plan', es: 'Procesos en segundo plano', 'pt-PT': 'Processos em segundo plano', 'pt-BR': 'Processos em segundo plano', it: 'Processi in background', de: 'Hintergrundaufträge' } as const;
    for (const [language, label] of Object.entries(labels)) {
      const { unmount } = await renderDashboard({ roles: ['Administrator'], language: language as keyof typeof labels });
      expect(jobsButton(label)).toBeInTheDocument();
      unmount();
    }
  });
});
