import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage } from '../../../test-utils';
import { AREAS, bodyRows, choose, list, PAGE_TEST_TIMEOUT, queriesTo, type, userRow } from '../../directory/test-helpers';
import { UserDetailPage } from '../../directory/users/UserDetailPage';
import type { ApplicationUser } from './application-users-api';
import { ApplicationUsersTab } from './ApplicationUsersTab';

const USERS = 'GET /api/v1/admin/applications/crm/users';

const ann: ApplicationUser = {
  id: 'u1',
  userName: 'ann@example.com',
  email: 'ann@mail.example',
  firstName: 'Ann',
  lastName: 'Able',
  areaName: 'North',
  roles: [
    { id: 'r1', name: 'Reader', description: 'Reads the accounts', isGlobal: true, origins: [{ via: 'own', groupName: null, tenantName: null }] },
    { id: 'r2', name: 'Writer', description: null, isGlobal: false, origins: [{ via: 'own', groupName: null, tenantName: null }, { via: 'group', groupName: 'Editors', tenantName: null }] },
  ],
};
const bob: ApplicationUser = { ...ann, id: 'u2', userName: 'bob@example.com', email: 'bob@mail.example', firstName: 'Bob', areaName: 'South', roles: [ann.roles[1]!] };

beforeEach(() => sessionStorage.clear());

describe('ApplicationUsersTab', { timeout: PAGE_TEST_TIMEOUT }, () => {
  function renderTab() {
    return renderPage(<ApplicationUsersTab applicationId="crm" applicationName="CRM" />, {
      route: '/applications/crm/users',
      namespaces: ['admin', 'directory', 'applicationRoles'],
      api: { [USERS]: list([ann, bob]), 'GET /api/v1/admin/areas': AREAS },
    });
  }

  it('lists the users holding the application’s roles by e-mail, with their roles, global ones told apart', async () => {
    const { fetchMock } = await renderTab();

    const link = await screen.findByText('ann@example.com');
    expect(link.closest('a')).toHaveAttribute('href', '/applications/crm/users/u1');
    const [first, second] = bodyRows();
    expect(first).toHaveTextContent('Ann');
    expect(first).toHaveTextContent('North');
    // Each role as everywhere else (application, role, how it is held); a global one in blue and said so.
    expect(within(first!).getByLabelText('Reader (global)')).toHaveTextContent('CRM: Reader · own name');
    expect(within(first!).getByLabelText('Reader (global)').querySelector('.role-tag')).toHaveClass('ant-tag-blue');
    const writer = within(first!).getByText('CRM: Writer').closest('.role-tag')!;
    expect(writer).toHaveTextContent('CRM: Writer · own name, through the group Editors');
    expect(writer).not.toHaveClass('ant-tag-blue');
    expect(writer.parentElement).not.toHaveAttribute('aria-label');
    expect(second).toHaveTextContent('bob@example.com');
    expect(screen.getByText('Roles held in the Global tenant are shown in blue.')).toBeInTheDocument();
    expect(queriesTo(fetchMock, USERS)[0]).toEqual({ skip: '0', top: '10', orderBy: 'email asc' });
  });

  it('filters on global roles and on the users’ area, and searches', async () => {
    const { fetchMock } = await renderTab();
    await screen.findByText('ann@example.com');

    await choose('Global roles', 'With global roles');
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ globalRoles: 'true', skip: '0' }));
    await choose('Global roles', 'Without global roles');
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ globalRoles: 'false' }));
    await choose('Area', 'South');
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ globalRoles: 'false', areaId: 'a2' }));
    await choose('Global roles', 'With or without global roles');
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toEqual({ skip: '0', top: '10', orderBy: 'email asc', areaId: 'a2' }));
    type(screen.getByRole('searchbox', { name: 'Search' }), 'bob');
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ $search: 'bob', areaId: 'a2' }));
  });

  it('opens a user’s page under the application’s Users tab, with a trail that leads back to it', async () => {
    const detail = {
      ...userRow({ id: 'u1', userName: 'ann@example.com', email: 'ann@mail.example', firstName: 'Ann', lastName: 'Lee' }),
      jobTitle: null,
      manager: null,
      teams: [],
      emailVerified: true,
      twoFactorEnabled: false,
      lastLoginAt: null,
      createdAt: '2025-01-01T08:00:00Z',
    };
    await renderPage(
      <MemoryRouter initialEntries={['/applications/crm/users']}>
        <Routes>
          <Route path="/applications/:applicationId/users" element={<ApplicationUsersTab applicationId="crm" applicationName="CRM" />} />
          <Route path="/applications/:applicationId/users/:id" element={<UserDetailPage />} />
        </Routes>
      </MemoryRouter>,
      {
        router: false,
        namespaces: ['admin', 'directory', 'applicationRoles'],
        api: {
          [USERS]: list([ann]),
          'GET /api/v1/admin/areas': AREAS,
          'GET /api/v1/admin/users/u1': detail,
          'GET /api/v1/admin/applications/crm': { id: 'crm', name: 'crm', displayName: 'CRM' },
        },
      },
    );

    fireEvent.click(await screen.findByText('ann@example.com'));

    expect(await screen.findByRole('heading', { level: 1, name: 'ann@example.com' })).toBeInTheDocument();
    const trail = within(screen.getByRole('navigation', { name: 'Breadcrumbs' }));
    expect(trail.getByRole('link', { name: 'Applications' })).toHaveAttribute('href', '/applications');
    expect(await trail.findByRole('link', { name: 'CRM' })).toHaveAttribute('href', '/applications/crm/users');
    expect(trail.getByText('ann@example.com')).toBeInTheDocument();
  });
});
