import { PREFERENCES_STORAGE_KEY } from '@gatehouse/frontend-shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Company } from '../../api/portal-api';
import { ShellLayout } from '../../shell/ShellLayout';
import { createTestI18n, homeInfo, jsonResponse, myProfile, renderSignedIn, stubApi } from '../../test-utils';
import { readStoredCompany, storeCompanyPreference } from './company-preference';

let i18n: I18n;

const ACME: Company = { id: 'a0000000-0000-4000-8000-000000000001', title: 'Acme' };
const BETA: Company = { id: 'b0000000-0000-4000-8000-000000000002', title: 'Beta Corp' };
const GAMMA: Company = { id: 'c0000000-0000-4000-8000-000000000003', title: 'Gamma Ltd' };

beforeEach(async () => {
  i18n = await createTestI18n('en');
  localStorage.clear();
});

interface ShellOptions {
  companyCount: number;
  current?: Company | null;
  choose?: (request: Request) => Response | Promise<Response>;
}

/** The shell over a fake API whose current company changes with the choice; `chosen` records the bodies sent. */
function renderShell(options: ShellOptions) {
  let current = options.current ?? null;
  const chosen: unknown[] = [];
  const fetchMock = stubApi({
    'GET /api/v1/applications/status/portal': new Response('Running'),
    'GET /api/v1/admin/applications/homeInfo': homeInfo([]),
    'GET /api/v1/profile': () => jsonResponse(myProfile({ companyCount: options.companyCount, currentCompany: current })),
    'GET /api/v1/profile/tenants': (request: Request) => {
      const search = new URL(request.url).searchParams.get('searchQuery')?.toLowerCase();
      const items = [ACME, BETA, GAMMA].filter((company) => !search || company.title.toLowerCase().includes(search));
      return jsonResponse({ items, count: items.length });
    },
    'PUT /api/v1/profile/currentCompany':
      options.choose ??
      (async (request: Request) => {
        const body = (await request.json()) as { tenantId: string };
        chosen.push(body);
        current = [ACME, BETA, GAMMA].find((company) => company.id === body.tenantId) ?? null;
        return jsonResponse(current);
      }),
  });
  renderSignedIn(
    <Routes>
      <Route element={<ShellLayout />}>
        <Route index element={<p>Home content</p>} />
      </Route>
    </Routes>,
    { i18n },
  );
  return Object.assign(fetchMock, { chosen });
}

async function openUserMenu(): Promise<HTMLElement> {
  fireEvent.click(screen.getByRole('button', { name: 'Account of Jane Doe' }));
  return screen.findByRole('dialog', { name: 'Jane Doe' });
}

async function openCompanies(): Promise<HTMLElement> {
  const popup = await openUserMenu();
  fireEvent.click(await within(popup).findByRole('button', { name: 'Change company' }));
  return screen.findByRole('dialog', { name: 'Change company' });
}

const requests = (fetchMock: ReturnType<typeof stubApi>, path: string) =>
  fetchMock.mock.calls.map(([input]) => input as Request).filter((request) => new URL(request.url).pathname === path);

describe('Change company', () => {
  it('is offered in the user menu only to a user with more than one company', async () => {
    const fetchMock = renderShell({ companyCount: 1, current: ACME });
    await waitFor(() => expect(requests(fetchMock, '/api/v1/profile')).toHaveLength(1));
    const popup = await openUserMenu();
    expect(await within(popup).findByText('Company: Acme')).toBeInTheDocument();
    expect(within(popup).queryByRole('button', { name: 'Change company' })).not.toBeInTheDocument();
  });

  it('lists the companies by title, ten at a time, marking the current one', async () => {
    const fetchMock = renderShell({ companyCount: 3, current: BETA });
    const dialog = await openCompanies();

    const list = within(dialog).getByRole('radiogroup', { name: 'Companies' });
    await waitFor(() => expect(within(list).getAllByRole('radio')).toHaveLength(3));
    expect(within(list).getByRole('radio', { name: /Beta Corp/ })).toBeChecked();
    expect(within(list).getByText('Current')).toBeInTheDocument();
    const [listCall] = requests(fetchMock, '/api/v1/profile/tenants');
    expect(Object.fromEntries(new URL(listCall!.url).searchParams)).toEqual({ skip: '0', take: '10' });
    expect(within(dialog).getByRole('button', { name: 'Select' })).toBeDisabled();
  });

  it('searches the title once the user pauses typing', async () => {
    const fetchMock = renderShell({ companyCount: 3 });
    const dialog = await openCompanies();
    await waitFor(() => expect(within(dialog).getAllByRole('radio')).toHaveLength(3));

    fireEvent.change(within(dialog).getByRole('searchbox', { name: 'Search companies' }), { target: { value: 'gam' } });

    await waitFor(() => expect(within(dialog).getAllByRole('radio')).toHaveLength(1));
    expect(within(dialog).getByRole('radio', { name: 'Gamma Ltd' })).toBeInTheDocument();
    const searches = requests(fetchMock, '/api/v1/profile/tenants').map((request) => new URL(request.url).searchParams.get('searchQuery'));
    expect(searches).toEqual([null, 'gam']);
  });

  it('keeps the company picked on the server and in the local preferences, and says so', async () => {
    storeCompanyPreference(null);
    localStorage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify({ currentLanguage: 'en' }));
    const fetchMock = renderShell({ companyCount: 3, current: ACME });
    const dialog = await openCompanies();

    fireEvent.click(await within(dialog).findByRole('radio', { name: 'Gamma Ltd' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Select' }));

    expect(await screen.findByText('You are now working for Gamma Ltd.')).toBeInTheDocument();
    expect(fetchMock.chosen).toEqual([{ tenantId: GAMMA.id }]);
    expect(JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY)!)).toEqual({ currentLanguage: 'en', currentCompany: GAMMA });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change company' })).not.toBeInTheDocument());
  });

  it('shows the server’s refusal and stays open', async () => {
    renderShell({
      companyCount: 3,
      choose: () => jsonResponse({ code: 'users.tenant_not_found', message: 'Tenant not found', errors: [] }, 404),
    });
    const dialog = await openCompanies();

    fireEvent.click(await within(dialog).findByRole('radio', { name: 'Acme' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Select' }));

    expect(await within(dialog).findByText('Not found')).toBeInTheDocument();
    expect(readStoredCompany()).toBeUndefined();
  });
});

describe('currentCompany preference', () => {
  it('follows the server’s current company when the profile comes', async () => {
    renderShell({ companyCount: 2, current: BETA });
    await waitFor(() => expect(readStoredCompany()).toEqual(BETA));
  });

  it('keeps the other preferences, and ignores a malformed entry', () => {
    localStorage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify({ currentLanguage: 'fr', currentCompany: { id: 42 } }));
    expect(readStoredCompany()).toBeUndefined();

    storeCompanyPreference(ACME);
    expect(JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY)!)).toEqual({ currentLanguage: 'fr', currentCompany: ACME });

    storeCompanyPreference(null);
    expect(JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY)!)).toEqual({ currentLanguage: 'fr' });
  });
});
