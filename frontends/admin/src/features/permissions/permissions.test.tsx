import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../test-utils';
import { AREAS, bodyRows, choose, dialogWith, formDataTo, list, PAGE_TEST_TIMEOUT, queriesTo, sentTo, type, userRow } from '../directory/test-helpers';
import GroupPermissionsPage from './GroupPermissionsPage';
import type { TenantIdentityGroup, TenantIdentityGroupUser, TenantIdentityUser } from './permissions-api';
import PermissionsPage, { PERMISSIONS_TAB_KEY } from './PermissionsPage';
import UserPermissionsPage from './UserPermissionsPage';

const NAMESPACES = ['admin', 'directory', 'permissions'] as const;
const USERS = 'GET /api/v1/admin/tenantIdentities';
const GROUPS = 'GET /api/v1/admin/tenantIdentities/groups';
const INHERITABLE = 'Inheritable: also applies to the child tenants';

const ana: TenantIdentityUser = {
  id: 'u1',
  userName: 'ana@example.com',
  email: 'ana@mail.example',
  displayName: 'Ana Lima',
  areaName: 'North',
  tenants: [
    { id: 't1', title: 'Acme', isInheritable: true },
    { id: null, title: 'Global', isInheritable: false },
    { id: 't2', title: 'Beta', isInheritable: false },
  ],
};
const sales: TenantIdentityGroup = {
  id: 'g1',
  name: 'Sales',
  description: 'The sellers',
  areaName: 'South',
  membersCount: 4,
  tenants: [{ id: 't1', title: 'Acme', isInheritable: true }],
};
const bob: TenantIdentityGroupUser = { userId: 'u2', userName: 'bob@example.com', email: 'bob@mail.example', displayName: 'Bob Stone', permission: 'Owner' };

const tagOf = (text: string, container: HTMLElement = document.body) => within(container).getByText(text).closest<HTMLElement>('.ant-tag')!;

beforeEach(() => sessionStorage.clear());

describe('PermissionsPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  function renderPermissions(options: { roles?: string[]; api?: ApiRoutes; route?: string } = {}) {
    return renderPage(<PermissionsPage />, {
      route: options.route ?? '/permissions',
      pattern: '/permissions',
      roles: options.roles,
      namespaces: [...NAMESPACES],
      api: { [USERS]: list([ana]), [GROUPS]: list([sales]), 'GET /api/v1/admin/areas': AREAS, ...options.api },
    });
  }

  it.each([['Manager'], ['TenantAdministrator'], ['AreaAdministrator'], ['God']])('lets a %s in', async (role) => {
    await renderPermissions({ roles: [role] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Permissions' })).toBeInTheDocument();
    expect(await screen.findByText('ana@example.com')).toBeInTheDocument();
  });

  it('lists the users with their tenants as badges: Global first in its own colour, inheritable ones marked', async () => {
    const { fetchMock } = await renderPermissions();

    const link = await screen.findByRole('link', { name: 'ana@example.com' });
    expect(link).toHaveAttribute('href', '/users/u1');
    const row = link.closest('tr')!;
    expect(row).toHaveTextContent('Ana Lima');
    expect(row).toHaveTextContent('ana@mail.example');
    expect(row).toHaveTextContent('North');
    const badges = [...row.querySelectorAll('.ant-tag')].map((tag) => tag.textContent);
    expect(badges).toEqual(['Global', 'Acme', 'Beta']);
    expect(tagOf('Global', row)).toHaveClass('ant-tag-gold');
    expect(tagOf('Acme', row)).toHaveClass('ant-tag-blue');
    expect(within(tagOf('Acme', row)).getByRole('img', { name: INHERITABLE })).toBeInTheDocument();
    expect(within(tagOf('Beta', row)).queryByRole('img', { name: INHERITABLE })).not.toBeInTheDocument();
    expect(queriesTo(fetchMock, USERS)[0]).toEqual({ skip: '0', top: '10', orderBy: 'userName asc' });
    expect(sentTo(fetchMock, GROUPS)).toHaveLength(0);
  });

  it('searches, filters by area and pages the users', async () => {
    const { fetchMock } = await renderPermissions({ api: { [USERS]: list([ana], 30) } });
    await screen.findByText('ana@example.com');

    await choose('Area', 'South');
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ area: 'a2', skip: '0' }));
    type(screen.getByRole('searchbox', { name: 'Search' }), 'ana');
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ area: 'a2', $search: 'ana' }));
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ skip: '10', top: '10', $search: 'ana' }));
  });

  it('lists the groups on the Groups tab and remembers the tab for the next visit', async () => {
    const first = await renderPermissions();
    await screen.findByText('ana@example.com');

    fireEvent.click(screen.getByRole('tab', { name: 'Groups' }));
    const link = await screen.findByRole('link', { name: 'Sales' });
    expect(link).toHaveAttribute('href', '/permissions/g1');
    const row = link.closest('tr')!;
    expect(row).toHaveTextContent('The sellers');
    expect(row).toHaveTextContent('South');
    expect(within(row).getByText('4')).toBeInTheDocument();
    expect(within(tagOf('Acme', row)).getByRole('img', { name: INHERITABLE })).toBeInTheDocument();
    expect(queriesTo(first.fetchMock, GROUPS)[0]).toEqual({ skip: '0', top: '10', orderBy: 'name asc' });
    expect(sessionStorage.getItem(PERMISSIONS_TAB_KEY)).toBe('groups');
    first.unmount();

    const second = await renderPermissions();
    expect(await screen.findByRole('link', { name: 'Sales' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Groups' })).toHaveAttribute('aria-selected', 'true');
    expect(sentTo(second.fetchMock, USERS)).toHaveLength(0);
  });

  it('opens the tab the address names, whatever was remembered', async () => {
    sessionStorage.setItem(PERMISSIONS_TAB_KEY, 'users');
    await renderPermissions({ route: '/permissions?tab=groups' });

    expect(await screen.findByRole('link', { name: 'Sales' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Groups' })).toHaveAttribute('aria-selected', 'true');
  });

  it('downloads the users template and uploads a filled one, to be imported in the background', async () => {
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:template', revokeObjectURL: () => undefined }));
    const { fetchMock } = await renderPermissions({
      api: {
        'GET /api/v1/admin/tenantIdentities/template/users': new Response('xlsx-bytes'),
        'POST /api/v1/admin/tenantIdentities/bulk_insert/users': () => jsonResponse({ jobId: '0b9c8d7e-1f2a-4b3c-9d4e-5f6a7b8c9d1b' }, 202),
      },
    });
    await screen.findByText('ana@example.com');

    fireEvent.click(screen.getByRole('button', { name: /Bulk upload/ }));
    fireEvent.click(await screen.findByText('Download users template'));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('UsersWithTenantTemplate.xlsx');

    fireEvent.click(screen.getByRole('button', { name: /Bulk upload/ }));
    fireEvent.click(await screen.findByText('Upload users with tenant roles'));
    const dialog = await dialogWith('Click or drag an Excel file');
    fireEvent.change(dialog.querySelector('input[type="file"]')!, { target: { files: [new File(['x'], 'roles.xlsx')] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await within(dialog).findByText('Upload Successful')).toBeInTheDocument();
    expect(within(dialog).getByText('This file will be processed in the background.')).toBeInTheDocument();
    expect(formDataTo(fetchMock, 'POST /api/v1/admin/tenantIdentities/bulk_insert/users').map((form) => (form.get('file') as File).name)).toEqual([
      'roles.xlsx',
    ]);
  });

  it('uploads groups from the Groups tab and shows the server’s refusal', async () => {
    await renderPermissions({
      route: '/permissions?tab=groups',
      api: { 'POST /api/v1/admin/tenantIdentities/bulk_insert/groups': jsonResponse({ code: 'import.bad_file', message: 'The file has no sheet' }, 400) },
    });
    await screen.findByRole('link', { name: 'Sales' });

    fireEvent.click(screen.getByRole('button', { name: /Bulk upload/ }));
    expect(await screen.findByText('Download groups template')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Upload groups with tenant roles'));
    const dialog = await dialogWith('Click or drag an Excel file');
    fireEvent.change(dialog.querySelector('input[type="file"]')!, { target: { files: [new File(['x'], 'groups.xlsx')] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await within(dialog).findByText('Upload Error')).toBeInTheDocument();
    expect(within(dialog).getByText('The file has no sheet')).toBeInTheDocument();
  });

  it('keeps the imports from a TenantAdministrator, who may not grant roles', async () => {
    await renderPermissions({ roles: ['TenantAdministrator'] });
    await screen.findByText('ana@example.com');
    expect(screen.queryByRole('button', { name: /Bulk upload/ })).not.toBeInTheDocument();
  });

  it('opens the User Permissions page from its button', async () => {
    await renderPermissions();
    fireEvent.click(await screen.findByRole('button', { name: /User Permissions/ }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/permissions/users/check');
  });
});

describe('GroupPermissionsPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  const GROUP = 'GET /api/v1/admin/tenantIdentities/groups/g1';
  const GROUP_USERS = 'GET /api/v1/admin/tenantIdentities/groups/g1/users';

  it('takes the group from the Groups tab’s link, without asking for it again', async () => {
    const { fetchMock } = await renderPage(
      <MemoryRouter initialEntries={['/permissions?tab=groups']}>
        <Routes>
          <Route path="/permissions" element={<PermissionsPage />} />
          <Route path="/permissions/:identityId" element={<GroupPermissionsPage />} />
        </Routes>
      </MemoryRouter>,
      { router: false, namespaces: [...NAMESPACES], api: { [GROUPS]: list([sales]), [GROUP_USERS]: list([bob]), 'GET /api/v1/admin/areas': AREAS } },
    );

    fireEvent.click(await screen.findByRole('link', { name: 'Sales' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Group Details - Sales' })).toBeInTheDocument();
    expect(within(tagOf('Acme')).getByRole('img', { name: INHERITABLE })).toBeInTheDocument();
    const user = await screen.findByRole('link', { name: 'bob@example.com' });
    expect(user.closest('tr')).toHaveTextContent('Owner');
    expect(sentTo(fetchMock, GROUP)).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Permissions' })).toHaveAttribute('href', '/permissions?tab=groups');
  });

  it('asks for the group when opened from its address, and pages its users', async () => {
    const { fetchMock } = await renderPage(<GroupPermissionsPage />, {
      route: '/permissions/g1',
      pattern: '/permissions/:identityId',
      namespaces: [...NAMESPACES],
      api: { [GROUP]: { ...sales, tenants: [{ id: null, title: 'Global', isInheritable: false }] }, [GROUP_USERS]: list([bob], 12) },
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Group Details - Sales' })).toBeInTheDocument();
    expect(tagOf('Global')).toHaveClass('ant-tag-gold');
    await screen.findByRole('link', { name: 'bob@example.com' });
    expect(bodyRows()).toHaveLength(1);
    expect(queriesTo(fetchMock, GROUP_USERS)[0]).toEqual({ skip: '0', top: '10', orderBy: 'userName asc' });
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(queriesTo(fetchMock, GROUP_USERS).at(-1)).toMatchObject({ skip: '10', top: '10' }));
    expect(sentTo(fetchMock, GROUP)).toHaveLength(1);
  });

  it('says so when the group does not exist', async () => {
    await renderPage(<GroupPermissionsPage />, {
      route: '/permissions/g9',
      pattern: '/permissions/:identityId',
      namespaces: [...NAMESPACES],
      api: { 'GET /api/v1/admin/tenantIdentities/groups/g9': jsonResponse({ code: 'groups.not_found', message: 'Group not found' }, 404) },
    });

    expect(await screen.findByText('Group not found')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Group Details' })).toBeInTheDocument();
  });

});

describe('UserPermissionsPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  const CHECK = 'GET /api/v1/admin/users/check/permissions';

  function renderCheck(options: { roles?: string[]; api?: ApiRoutes } = {}) {
    return renderPage(<UserPermissionsPage />, {
      route: '/permissions/users/check',
      pattern: '/permissions/users/check',
      roles: options.roles,
      namespaces: [...NAMESPACES],
      api: {
        'GET /api/v1/admin/users': list([
          userRow({ id: 'u1', userName: 'ana@example.com', firstName: 'Ana', lastName: 'Lima' }),
          userRow({ id: 'u2', userName: 'bob@example.com', firstName: 'Bob', lastName: 'Stone' }),
        ]),
        [`${CHECK}/u1`]: {
          groups: ['Sales', 'Support'],
          applicationPermissions: [
            {
              applicationName: 'crm-client',
              roles: ['Reader', 'Writer'],
              applicationDisplayName: 'CRM',
              grants: [
                { roleId: 'r1', roleName: 'Reader', tenantId: 't1', tenantName: 'ACME', origins: [{ via: 'own', groupName: null, tenantName: null }] },
                { roleId: 'r1', roleName: 'Reader', tenantId: 't2', tenantName: 'ACME Spain', origins: [{ via: 'hierarchy', groupName: null, tenantName: 'ACME' }] },
                { roleId: 'r2', roleName: 'Writer', tenantId: 't1', tenantName: 'ACME', origins: [{ via: 'group', groupName: 'Sales', tenantName: null }] },
              ],
            },
          ],
        },
        [`${CHECK}/u2`]: { groups: [], applicationPermissions: [] },
        ...options.api,
      },
    });
  }

  it('asks for a user first, looking users up 25 at a time by user name', async () => {
    const { fetchMock } = await renderCheck();

    expect(await screen.findByText('Please select a user to check permissions')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'User Permissions' })).toBeInTheDocument();
    await waitFor(() => expect(queriesTo(fetchMock, 'GET /api/v1/admin/users')[0]).toEqual({ top: '25', orderBy: 'userName asc' }));
    expect(fetchMock.mock.calls.some(([input]) => String(input instanceof Request ? input.url : input).includes('/check/permissions/'))).toBe(false);
  });

  it('shows the chosen user’s groups and, per application, their roles', async () => {
    const { fetchMock } = await renderCheck();
    await choose('User', 'ana@example.com (Ana Lima)');

    const groups = await screen.findByRole('list', { name: 'Groups' });
    expect([...groups.querySelectorAll('li')].map((item) => item.textContent)).toEqual(['Sales', 'Support']);
    const applications = screen.getByRole('list', { name: 'Roles per application' });
    const crm = within(applications).getByText('CRM', { selector: '.permissions-check__application' }).closest('li')!;
    // Each role as everywhere else: application, role, the tenant, and how it is held there.
    expect([...crm.querySelectorAll('.role-tag')].map((tag) => tag.textContent)).toEqual([
      'CRM: Reader (ACME) · own name',
      'CRM: Reader (ACME Spain) · inherited from ACME',
      'CRM: Writer (ACME) · through the group Sales',
    ]);
    expect(screen.queryByText('Please select a user to check permissions')).not.toBeInTheDocument();
    expect(sentTo(fetchMock, `${CHECK}/u1`)).toHaveLength(1);
  });

  it('says when the user belongs to no group and holds no role', async () => {
    await renderCheck();
    await choose('User', 'bob@example.com (Bob Stone)');

    expect(await screen.findByText('No groups found for this user')).toBeInTheDocument();
    expect(screen.getByText('No application roles found for this user')).toBeInTheDocument();
  });

  it('shows the server’s refusal', async () => {
    await renderCheck({ api: { [`${CHECK}/u1`]: jsonResponse({ code: 'errors.forbidden', message: 'Forbidden' }, 403) } });
    await choose('User', 'ana@example.com (Ana Lima)');

    expect(await screen.findByText("You don't have permission to perform this action")).toBeInTheDocument();
  });

});
