import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../../test-utils';
import type { Group, GroupMember } from '../api/groups-api';
import { GLOBAL_TENANT_ID } from '../api/lookups-api';
import { LIST_STORAGE_KEYS } from '../components/list-state';
import { AREAS, bodiesTo, bodyRows, choose, dialogWith, formDataTo, groupRow as group, list, PAGE_TEST_TIMEOUT, queriesTo, sentTo, type } from '../test-helpers';
import { GroupDetailPage } from './GroupDetailPage';
import { GroupsPage } from './GroupsPage';

const GROUPS = 'GET /api/v1/admin/groups';

const accounting = group({
  id: 'g1',
  name: 'Accounting',
  description: 'Books and ledgers',
  tenants: [
    { id: null, title: 'Global' },
    { id: 't1', title: 'Acme' },
  ],
  membersCount: 3,
  userIsOwner: true,
});
const everyone = group({ id: 'g0', name: 'Users', description: 'Everyone', tenants: [{ id: null, title: 'Global' }], membersCount: 120 });

beforeEach(() => sessionStorage.clear());

describe('GroupsPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  function renderGroups(options: { roles?: string[]; api?: ApiRoutes } = {}) {
    return renderPage(<GroupsPage />, {
      route: '/groups',
      roles: options.roles,
      api: { [GROUPS]: list([accounting, everyone]), 'GET /api/v1/admin/areas': AREAS, ...options.api },
    });
  }

  it('lists the groups with their area, tenant tags and member counts, by name', async () => {
    const { fetchMock } = await renderGroups();

    expect(await screen.findByRole('link', { name: 'Accounting' })).toHaveAttribute('href', '/groups/g1');
    const row = screen.getByRole('link', { name: 'Accounting' }).closest('tr')!;
    expect(row).toHaveTextContent('Books and ledgers');
    expect(within(row).getByText('North')).toBeInTheDocument();
    expect(within(row).getByText('Global')).toBeInTheDocument();
    expect(within(row).getByText('Acme')).toBeInTheDocument();
    expect(within(row).getByText('3')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(2);
    expect(queriesTo(fetchMock, GROUPS)[0]).toEqual({ skip: '0', top: '10', orderBy: 'name asc' });
  });

  it('filters by area and remembers the query and the filter', async () => {
    const { fetchMock, unmount } = await renderGroups();
    await screen.findByText('Accounting');

    await choose('Area', 'South');
    await waitFor(() => expect(queriesTo(fetchMock, GROUPS).at(-1)).toMatchObject({ area: 'a2', skip: '0' }));
    type(screen.getByRole('searchbox', { name: 'Search' }), 'acc');
    await waitFor(() => expect(queriesTo(fetchMock, GROUPS).at(-1)).toMatchObject({ area: 'a2', $search: 'acc' }));
    unmount();

    expect(JSON.parse(sessionStorage.getItem(LIST_STORAGE_KEYS.groups)!)).toMatchObject({ search: 'acc', filters: { area: 'a2' } });
    const again = await renderGroups();
    await waitFor(() => expect(queriesTo(again.fetchMock, GROUPS)[0]).toMatchObject({ area: 'a2', $search: 'acc' }));
  });

  it('requires a name and an area for a new group, then creates it', async () => {
    const { fetchMock } = await renderGroups({
      api: { 'POST /api/v1/admin/groups': () => jsonResponse(group({ id: 'g9', name: 'Auditors' }), 201) },
    });
    await screen.findByText('Accounting');
    fireEvent.click(screen.getByRole('button', { name: /New group/ }));
    const dialog = await dialogWith('New group');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please input your group name!')).toBeInTheDocument();
    expect(within(dialog).getByText('Area required')).toBeInTheDocument();

    type(within(dialog).getByLabelText('Name'), 'Auditors');
    type(within(dialog).getByLabelText('Description'), 'Internal audit');
    await choose('Area', 'North', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('The group Auditors has been created')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/groups')).toEqual([{ name: 'Auditors', description: 'Internal audit', areaId: 'a1' }]);
  });

  it('deletes a group after confirmation', async () => {
    const { fetchMock } = await renderGroups({ api: { 'DELETE /api/v1/admin/groups/g1': new Response(null, { status: 204 }) } });
    await screen.findByText('Accounting');

    fireEvent.click(screen.getByRole('button', { name: 'Delete the group Accounting' }));
    fireEvent.click(within(await dialogWith('Delete the group Accounting?')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('The group Accounting has been deleted')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'DELETE /api/v1/admin/groups/g1')).toHaveLength(1);
  });

  it('offers neither creation nor deletion to a read-only caller', async () => {
    await renderGroups({ roles: ['TenantAdministrator'] });
    await screen.findByText('Accounting');

    expect(screen.queryByRole('button', { name: /New group/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete the group/ })).not.toBeInTheDocument();
  });
});

describe('GroupDetailPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  const ana: GroupMember = {
    userId: 'u1',
    userName: 'ana@example.com',
    email: 'ana.lima@mail.example',
    firstName: 'Ana',
    lastName: 'Lima',
    groupId: 'g1',
    groupName: 'Accounting',
    permission: 'Reader',
  };

  function renderGroup(subject: Group, options: { roles?: string[]; api?: ApiRoutes } = {}) {
    const base = `/api/v1/admin/groups/${subject.id}`;
    return renderPage(<GroupDetailPage />, {
      route: `/groups/${subject.id}`,
      pattern: '/groups/:id',
      roles: options.roles,
      api: {
        [`GET ${base}`]: subject,
        [`GET ${base}/users`]: list([{ ...ana, groupId: subject.id, groupName: subject.name }]),
        [`GET ${base}/roles`]: {
          items: subject.tenants.map((tenant) => ({
            tenantId: tenant.id,
            tenantName: tenant.title,
            isInheritable: tenant.id !== null,
            roles: [{ roleId: 'r1', roleName: 'Viewer', applicationId: 'app-billing', applicationName: 'billing', applicationDisplayName: 'Billing' }],
          })),
        },
        'GET /api/v1/admin/areas': AREAS,
        'GET /api/v1/admin/users': list([{ id: 'u2', userName: 'bob@example.com', firstName: 'Bob', lastName: 'Stone' }]),
        'GET /api/v1/admin/tenants': list([{ id: 't2', title: 'Beta', areaId: 'a1', areaName: 'North', parentId: null }]),
        'GET /api/v1/admin/applications/approles': {
          items: [
            { id: 'r1', name: 'Viewer', description: null, byHierarchy: false, applicationId: 'app-billing', applicationName: 'Billing' },
            { id: 'r2', name: 'Sales', description: null, byHierarchy: false, applicationId: 'app-crm', applicationName: 'CRM' },
          ],
        },
        ...options.api,
      },
    });
  }

  it('lets an owner add a member, requiring the user, Reader by default', async () => {
    const { fetchMock } = await renderGroup(accounting, { api: { 'POST /api/v1/admin/groups/g1/users': new Response(null, { status: 201 }) } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Accounting' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'ana@example.com' })).toHaveAttribute('href', '/users/u1');

    fireEvent.click(screen.getByRole('button', { name: /Add member/ }));
    const dialog = await dialogWith('Add Member to Group');
    expect(within(dialog).getByText('No (Reader)')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('User required')).toBeInTheDocument();

    await choose('User', 'bob@example.com (Bob Stone)', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(sentTo(fetchMock, 'POST /api/v1/admin/groups/g1/users')).toHaveLength(1));
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/groups/g1/users')).toEqual([{ userId: 'u2', permission: 'Reader' }]);
    expect(queriesTo(fetchMock, 'GET /api/v1/admin/users')[0]).toEqual({ top: '25', orderBy: 'userName asc' });
    await waitFor(() => expect(sentTo(fetchMock, 'GET /api/v1/admin/groups/g1/users')).toHaveLength(2));
    expect(await screen.findByText('The member has been added to the group')).toBeInTheDocument();
  });

  it('never cuts a member’s user name or e-mail in the Members card; Owner and Remove stay pinned right', async () => {
    await renderGroup(accounting);
    const link = await screen.findByRole('link', { name: 'ana@example.com' });

    const members = screen.getByRole('region', { name: 'Members' });
    expect(members.querySelector<HTMLElement>('.ant-table-content table, .ant-table-body table')!.style.tableLayout).toBe('auto');
    expect(members.querySelector('.ant-table-cell-ellipsis')).toBeNull();
    for (const name of [/User name/, /Email/]) expect(within(members).getByRole('columnheader', { name })).toHaveClass('gh-identifying');
    const row = link.closest('tr')!;
    const fixedRight = /ant-table-cell-fix-(right|end)/;
    expect(within(row).getByRole('combobox', { name: 'Owner permission of ana@example.com' }).closest('td')!.className).toMatch(fixedRight);
    expect(within(row).getByRole('button', { name: 'Remove ana@example.com' }).closest('td')!.className).toMatch(fixedRight);
  });

  it('lets an owner change a member’s permission and remove a member', async () => {
    const { fetchMock } = await renderGroup(accounting, {
      api: {
        'PUT /api/v1/admin/groups/g1/users/u1': new Response(null, { status: 204 }),
        'DELETE /api/v1/admin/groups/g1/users/u1': new Response(null, { status: 204 }),
      },
    });
    const row = (await screen.findByRole('link', { name: 'ana@example.com' })).closest('tr')!;

    await choose('Owner permission of ana@example.com', 'Yes (Owner)');
    await waitFor(() => expect(sentTo(fetchMock, 'PUT /api/v1/admin/groups/g1/users/u1')).toHaveLength(1));
    expect(await bodiesTo(fetchMock, 'PUT /api/v1/admin/groups/g1/users/u1')).toEqual([{ permission: 'Owner' }]);

    fireEvent.click(within(row).getByRole('button', { name: 'Remove ana@example.com' }));
    fireEvent.click(within(await dialogWith('Remove ana@example.com from this group?')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(sentTo(fetchMock, 'DELETE /api/v1/admin/groups/g1/users/u1')).toHaveLength(1));
  });

  it('shows the members read-only when the caller does not own the group', async () => {
    await renderGroup({ ...accounting, userIsOwner: false });
    const link = await screen.findByRole('link', { name: 'ana@example.com' });

    expect(link.closest('tr')).toHaveTextContent('No (Reader)');
    expect(screen.queryByRole('button', { name: /Add member/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Upload members/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove ana@example.com' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Owner permission of ana@example.com' })).not.toBeInTheDocument();
  });

  it('uploads members from the group’s template, to be imported in the background', async () => {
    const { fetchMock } = await renderGroup(accounting, {
      api: { 'POST /api/v1/admin/groups/bulk_insert/g1': () => jsonResponse({ jobId: '0b9c8d7e-1f2a-4b3c-9d4e-5f6a7b8c9d1a' }, 202) },
    });
    await screen.findByRole('link', { name: 'ana@example.com' });

    fireEvent.click(screen.getByRole('button', { name: /Upload members/ }));
    const dialog = await dialogWith('Click or drag an Excel file');
    fireEvent.change(dialog.querySelector('input[type="file"]')!, { target: { files: [new File(['x'], 'members.xlsx')] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await within(dialog).findByText('Upload Successful')).toBeInTheDocument();
    expect(within(dialog).getByText('This file will be processed in the background.')).toBeInTheDocument();
    expect(formDataTo(fetchMock, 'POST /api/v1/admin/groups/bulk_insert/g1')).toHaveLength(1);
  });

  it('saves the general properties', async () => {
    const { fetchMock } = await renderGroup(accounting, { api: { 'PUT /api/v1/admin/groups/g1': { ...accounting, name: 'Accounts' } } });
    type(await screen.findByLabelText('Name'), 'Accounts');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'PUT /api/v1/admin/groups/g1')).toEqual([{ name: 'Accounts', description: 'Books and ledgers', areaId: 'a1' }]);
  });

  it('adds tenant roles: Global by default for an Administrator, roles grouped by application, inheritable', async () => {
    const { fetchMock } = await renderGroup(accounting, { api: { 'POST /api/v1/admin/groups/g1/roles': new Response(null, { status: 201 }) } });
    fireEvent.click(await screen.findByRole('button', { name: /Add Tenant Roles/ }));
    const dialog = await dialogWith('Add Tenant Roles to Group');
    expect(within(dialog).getByText('Global')).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Select at least one role')).toBeInTheDocument();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Roles' }));
    expect(await screen.findByText('CRM')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('Sales'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(sentTo(fetchMock, 'POST /api/v1/admin/groups/g1/roles')).toHaveLength(1));
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/groups/g1/roles')).toEqual([{ tenantId: null, roleIds: ['r2'], isInheritable: true }]);
    expect(await screen.findByText('The tenant roles have been added to the group')).toBeInTheDocument();
  });

  it('asks for every application’s roles at once (up to 10,000), not the API’s first page of 10', async () => {
    const { fetchMock } = await renderGroup(accounting);
    fireEvent.click(await screen.findByRole('button', { name: /Add Tenant Roles/ }));
    const dialog = await dialogWith('Add Tenant Roles to Group');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Roles' }));

    expect(await screen.findByTitle('Sales')).toBeInTheDocument();
    expect(queriesTo(fetchMock, 'GET /api/v1/admin/applications/approles')).toEqual([{ top: '10000' }]);
  });

  it('offers no roles of the applications marked hideInUserList', async () => {
    await renderGroup(accounting, {
      api: {
        'GET /api/v1/admin/applications/approles': {
          items: [
            { id: 'r1', name: 'Viewer', description: null, byHierarchy: false, applicationId: 'app-billing', applicationName: 'Billing' },
            { id: 'r9', name: 'Console user', description: null, byHierarchy: false, applicationId: 'admin', applicationName: 'Administration console', hideInUserList: true },
          ],
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Add Tenant Roles/ }));
    const dialog = await dialogWith('Add Tenant Roles to Group');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Roles' }));

    expect(await screen.findByTitle('Viewer')).toBeInTheDocument();
    expect(screen.queryByText('Administration console')).not.toBeInTheDocument();
    expect(screen.queryByTitle('Console user')).not.toBeInTheDocument();
  });

  it('keeps the Global option from a caller who is not an Administrator', async () => {
    await renderGroup(accounting, { roles: ['AreaAdministrator'] });
    fireEvent.click(await screen.findByRole('button', { name: /Add Tenant Roles/ }));
    const dialog = await dialogWith('Add Tenant Roles to Group');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Tenant required')).toBeInTheDocument();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Tenant' }));
    expect(await screen.findByTitle('Beta (North)')).toBeInTheDocument();
    expect(screen.queryByTitle('Global')).not.toBeInTheDocument();
  });

  it('shows the roles the group holds in each tenant the one way roles are shown: application, role, held in its own name', async () => {
    await renderGroup(accounting);
    const tags = (await screen.findAllByText('Billing: Viewer')).map((name) => name.closest('.role-tag'));
    // Global and Acme.
    expect(tags).toHaveLength(2);
    for (const tag of tags) expect(tag).toHaveTextContent('Billing: Viewer · own name');
  });

  it('removes the roles of a tenant, the Global entry by the empty GUID', async () => {
    const { fetchMock } = await renderGroup(accounting, {
      api: { [`DELETE /api/v1/admin/groups/g1/roles/${GLOBAL_TENANT_ID}`]: new Response(null, { status: 204 }) },
    });

    fireEvent.click(await screen.findByRole('button', { name: 'Remove the roles of Global' }));
    fireEvent.click(within(await dialogWith('Remove the roles of Global from this group?')).getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(sentTo(fetchMock, `DELETE /api/v1/admin/groups/g1/roles/${GLOBAL_TENANT_ID}`)).toHaveLength(1));
  });

  it('makes the Users group read-only for a non-God caller', async () => {
    await renderGroup(everyone, { roles: ['Administrator'] });

    expect(await screen.findByText('The Users group applies to everyone: only God may change it.')).toBeInTheDocument();
    expect(await screen.findByLabelText('Name')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add Tenant Roles/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove the roles of Global' })).not.toBeInTheDocument();
  });

  it('lets God change the Users group', async () => {
    await renderGroup(everyone, { roles: ['God'] });

    expect(await screen.findByLabelText('Name')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Add Tenant Roles/ })).toBeInTheDocument();
    expect(screen.queryByText('The Users group applies to everyone: only God may change it.')).not.toBeInTheDocument();
  });
});
