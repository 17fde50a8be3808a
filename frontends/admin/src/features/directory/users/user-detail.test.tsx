import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../../test-utils';
import type { ApplicationAccess, UserDetail, UserFactors } from '../api/users-api';
import { AREAS, bodiesTo, choose, dialogWith, groupRow, list, localDateTime, PAGE_TEST_TIMEOUT, queriesTo, sentTo, type, userRow } from '../test-helpers';
import { UserDetailPage } from './UserDetailPage';

const BASE = '/api/v1/admin/users/u1';
const OWN = { via: 'own', groupName: null, tenantName: null } as const;

const ana: UserDetail = {
  ...userRow({ id: 'u1', userName: 'ana@example.com', email: 'ana.lima@mail.example', firstName: 'Ana', lastName: 'Lima' }),
  jobTitle: 'Accountant',
  manager: 'Marta Boss',
  teams: ['Finance', 'Audit'],
  emailVerified: true,
  twoFactorEnabled: false,
  lastLoginAt: null,
  createdAt: '2025-01-01T08:00:00Z',
};

const billing: ApplicationAccess = {
  applicationId: 'app-billing',
  applicationName: 'billing',
  displayName: 'Billing',
  hasAccess: false,
  byHierarchy: false,
  throughGroups: [],
  roles: [],
  availableRoles: [
    { id: 'r-viewer', name: 'Viewer', description: 'Reads invoices', byHierarchy: false },
    { id: 'r-approver', name: 'Approver', description: null, byHierarchy: true },
  ],
};

const crm: ApplicationAccess = {
  applicationId: 'app-crm',
  applicationName: 'crm',
  displayName: 'CRM',
  hasAccess: true,
  byHierarchy: true,
  throughGroups: [],
  roles: [
    { roleId: 'r-sales', roleName: 'Sales', description: null, tenantId: 't1', tenantName: 'Acme', isGlobal: false, hierarchyType: 'Own', removable: true, origins: [OWN] },
    {
      roleId: 'r-lead',
      roleName: 'Lead',
      description: null,
      tenantId: 't0',
      tenantName: 'Acme Group',
      isGlobal: false,
      hierarchyType: 'ByHierarchy',
      removable: false,
      origins: [{ via: 'group', groupName: 'Leads', tenantName: null }],
    },
  ],
  availableRoles: [{ id: 'r-sales', name: 'Sales', description: null, byHierarchy: false }],
};

/** One synced passkey and an e-mailed code; the caller may reset them. */
const FACTORS: UserFactors = {
  passkeys: [{ id: 'p1', name: 'Work laptop', createdAt: '2026-01-05T09:00:00.000Z', lastUsedAt: null, lastUsedDevice: null, deviceHint: null, backedUp: true, deviceType: 'multiDevice' }],
  totp: { enrolled: false, enrolledAt: null },
  recoveryCodes: { remaining: 0, generatedAt: null },
  emailCode: true,
  mayReset: true,
};

function renderDetail(options: { roles?: string[]; api?: ApiRoutes; state?: unknown; route?: string; pattern?: string } = {}) {
  return renderPage(<UserDetailPage />, {
    route: options.route ?? '/users/u1',
    pattern: options.pattern ?? '/users/:id',
    roles: options.roles,
    state: options.state,
    api: {
      [`GET ${BASE}`]: ana,
      [`GET ${BASE}/groups`]: list([{ groupId: 'g1', groupName: 'Accounting', permission: 'Owner', areaName: 'North' }]),
      [`GET ${BASE}/tenants`]: {
        items: [
          {
            tenantId: 't1',
            tenantName: 'Acme',
            isGlobal: false,
            isInheritable: false,
            hierarchyType: 'Own',
            roles: [
              { roleId: 'r-sales', roleName: 'Sales', applicationId: 'app-crm', applicationName: 'crm', applicationDisplayName: 'CRM', hierarchyType: 'Own', isGlobal: false, origins: [OWN] },
              {
                roleId: 'r-admin',
                roleName: 'Admin',
                applicationId: 'app-crm',
                applicationName: 'crm',
                applicationDisplayName: 'CRM',
                hierarchyType: 'ByHierarchy',
                isGlobal: true,
                origins: [{ via: 'hierarchy', groupName: null, tenantName: 'Global' }],
              },
            ],
          },
        ],
      },
      [`GET ${BASE}/roles`]: { items: [billing, crm] },
      [`GET ${BASE}/factors`]: FACTORS,
      'GET /api/v1/admin/areas': AREAS,
      'GET /api/v1/admin/groups': list([groupRow({ id: 'g2', name: 'Auditors', membersCount: 1, userIsOwner: true })]),
      'GET /api/v1/admin/tenants': list([{ id: 't1', title: 'Acme', areaId: 'a1', areaName: 'North', parentId: null }]),
      ...options.api,
    },
  });
}

beforeEach(() => sessionStorage.clear());

describe('UserDetailPage: general properties', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('heads the page with the user name, the trail back to Users and a back arrow', async () => {
    await renderDetail();

    expect(await screen.findByRole('heading', { level: 1, name: 'ana@example.com' })).toBeInTheDocument();
    const trail = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(trail).getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/users');
    expect(within(trail).getByText('ana@example.com')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/users');
  });

  it('goes back along the trail the opening link carried, its breadcrumbs those of its own route (the same after a reload)', async () => {
    await renderDetail({
      state: { breadcrumbs: [{ title: 'Groups', to: '/groups' }, { title: 'Accounting', to: '/groups/g1' }, { title: 'ana@example.com' }] },
    });

    expect(await screen.findByRole('link', { name: 'Back' })).toHaveAttribute('href', '/groups/g1');
    const trail = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(trail).getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/users');
    expect(within(trail).queryByRole('link', { name: 'Accounting' })).not.toBeInTheDocument();
  });

  it('sits under the application’s Users tab at /applications/{id}/users/{userId}, the application named as fetched', async () => {
    await renderDetail({
      route: '/applications/crm/users/u1',
      pattern: '/applications/:applicationId/users/:id',
      api: { 'GET /api/v1/admin/applications/crm': { id: 'crm', name: 'crm', displayName: 'CRM Suite' } },
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'ana@example.com' })).toBeInTheDocument();
    const trail = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(trail).getByRole('link', { name: 'Applications' })).toHaveAttribute('href', '/applications');
    expect(await within(trail).findByRole('link', { name: 'CRM Suite' })).toHaveAttribute('href', '/applications/crm/users');
    expect(within(trail).getByText('ana@example.com')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/applications/crm/users');
  });

  it('fills the form and shows what the directory owns read-only', async () => {
    await renderDetail();

    expect(await screen.findByLabelText('Email')).toHaveValue('ana.lima@mail.example');
    expect(screen.getByLabelText('First name')).toHaveValue('Ana');
    expect(screen.getByLabelText('Last name')).toHaveValue('Lima');
    expect(screen.getByDisplayValue('ana@example.com')).toBeDisabled();
    expect(screen.getByDisplayValue('Accountant')).toBeDisabled();
    expect(screen.getByDisplayValue('Marta Boss')).toBeDisabled();
    expect(screen.getByText('Finance')).toBeInTheDocument();
    expect(screen.getByText('Audit')).toBeInTheDocument();
    expect(screen.getByText(localDateTime('2025-01-01T08:00:00Z'))).toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
  });

  it('saves the changes and says so', async () => {
    const { fetchMock } = await renderDetail({ api: { [`PUT ${BASE}`]: { ...ana, firstName: 'Anna' } } });
    type(await screen.findByLabelText('First name'), 'Anna');
    await choose('Area', 'South');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Restrict client access by scope' }));

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, `PUT ${BASE}`)).toEqual([
      { email: 'ana.lima@mail.example', firstName: 'Anna', lastName: 'Lima', language: 'en', areaId: 'a2', validateScopes: true },
    ]);
  });

  it('requires the edited fields with the spec’s messages', async () => {
    const { fetchMock } = await renderDetail();
    type(await screen.findByLabelText('First name'), '');
    type(screen.getByLabelText('Email'), 'nope');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Please input your first name!')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address.')).toBeInTheDocument();
    expect(sentTo(fetchMock, `PUT ${BASE}`)).toHaveLength(0);
  });

  it('shows a refusal in the error banner', async () => {
    await renderDetail({ api: { [`PUT ${BASE}`]: jsonResponse({ code: 'errors.forbidden', message: 'Forbidden' }, 403) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An error occurred');
    expect(alert).toHaveTextContent("You don't have permission to perform this action");
  });

  it('is read-only, without actions, for a TenantAdministrator', async () => {
    const { fetchMock } = await renderDetail({ roles: ['TenantAdministrator'] });

    expect(await screen.findByLabelText('Email')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Change password/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Lock/ })).not.toBeInTheDocument();
    // The sign-in factors are for those who may reset them: not even asked for.
    expect(screen.queryByText('Sign-in factors')).not.toBeInTheDocument();
    expect(sentTo(fetchMock, `GET ${BASE}/factors`)).toHaveLength(0);
  });

  it('shows the user’s sign-in factors, with their reset, beside the general properties', async () => {
    await renderDetail();

    const title = await screen.findByText('Sign-in factors');
    const factors = within(title.closest<HTMLElement>('.ant-card')!);
    expect(await factors.findByText('Work laptop')).toBeInTheDocument();
    expect(factors.getByText('Synced')).toBeInTheDocument();
    expect(factors.getByRole('button', { name: 'Reset…' })).toBeEnabled();
  });
});

describe('UserDetailPage: password, invitation and lock', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('changes the password after checking both fields, showing the policy', async () => {
    const { fetchMock } = await renderDetail({
      api: { [`POST /api/v1/admin/users/change-password/u1`]: { success: true, message: 'Password changed for ana@example.com' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Change password/ }));
    const dialog = await dialogWith('The password must have:');
    for (const rule of ['at least 12 characters', 'an uppercase letter', 'a lowercase letter', 'a number', 'a symbol', 'It must be changed every 90 days.']) {
      expect(within(dialog).getByText(rule)).toBeInTheDocument();
    }

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please input the new password!')).toBeInTheDocument();
    expect(within(dialog).getByText('Please input the password confirmation!')).toBeInTheDocument();

    type(within(dialog).getByLabelText('New password'), 'Str0ng&Secure!');
    type(within(dialog).getByLabelText('Password confirmation'), 'Str0ng&Secure?');
    expect(await within(dialog).findByText('The passwords you entered do not match')).toBeInTheDocument();

    type(within(dialog).getByLabelText('Password confirmation'), 'Str0ng&Secure!');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Password changed for ana@example.com')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/users/change-password/u1')).toEqual([
      { password: 'Str0ng&Secure!', confirmPassword: 'Str0ng&Secure!' },
    ]);
  });

  it('shows every rule the server says the new password breaks, not only the last', async () => {
    await renderDetail({
      api: {
        [`POST /api/v1/admin/users/change-password/u1`]: () =>
          jsonResponse(
            {
              code: 'errors.validation',
              message: 'The request is not valid',
              errors: [
                { field: 'password', message: 'The password must have at least 12 characters' },
                { field: 'password', message: 'The password must have an uppercase letter' },
                { field: 'password', message: 'The password must have a symbol' },
              ],
            },
            400,
          ),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Change password/ }));
    const dialog = await dialogWith('The password must have:');
    type(within(dialog).getByLabelText('New password'), 'short1');
    type(within(dialog).getByLabelText('Password confirmation'), 'short1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText('The password must have at least 12 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('The password must have an uppercase letter')).toBeInTheDocument();
    expect(within(dialog).getByText('The password must have a symbol')).toBeInTheDocument();
  });

  it('locks the user from the header after confirmation', async () => {
    const { fetchMock } = await renderDetail({
      api: { 'GET /api/v1/account/lock/u1': { success: true, user: { id: 'u1', userName: 'ana@example.com', firstName: 'Ana', lastName: 'Lima', locked: true } } },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Lock/ }));
    fireEvent.click(within(await dialogWith('Lock the user ana@example.com?')).getByRole('button', { name: 'Lock' }));

    expect(await screen.findByText('Ana Lima (ana@example.com) is now locked.')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'GET /api/v1/account/lock/u1')).toHaveLength(1);
    await waitFor(() => expect(sentTo(fetchMock, `GET ${BASE}`)).toHaveLength(2));
  });
});

describe('UserDetailPage: Member of and Tenants', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('lists the groups with the owner flag and adds the user to another group', async () => {
    const { fetchMock } = await renderDetail({ api: { [`POST ${BASE}/groups`]: () => new Response(null, { status: 201 }) } });
    const groupLink = await screen.findByRole('link', { name: 'Accounting' });
    expect(groupLink).toHaveAttribute('href', '/groups/g1');
    expect(groupLink.closest('tr')).toHaveTextContent('Yes (Owner)');

    fireEvent.click(screen.getByRole('button', { name: /Add to group/ }));
    const dialog = await dialogWith('Add user to group');
    expect(within(dialog).getByText('No (Reader)')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Group required')).toBeInTheDocument();

    await choose('Group', 'Auditors', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(screen.queryByText('Add user to group')).not.toBeInTheDocument());
    expect(await bodiesTo(fetchMock, `POST ${BASE}/groups`)).toEqual([{ groupId: 'g2', permission: 'Reader' }]);
    expect(await screen.findByText('The user has been added to the group')).toBeInTheDocument();
    expect(queriesTo(fetchMock, 'GET /api/v1/admin/groups')[0]).toMatchObject({ top: '50' });
    await waitFor(() => expect(sentTo(fetchMock, `GET ${BASE}/groups`)).toHaveLength(2));
  });

  it('reaches every group: the picker searches on the server and loads the next page when scrolled to its end', async () => {
    const groups = Array.from({ length: 120 }, (_, i) => groupRow({ id: `g${i + 1}`, name: `Group ${String(i + 1).padStart(3, '0')}` }));
    const { fetchMock } = await renderDetail({
      api: {
        [`POST ${BASE}/groups`]: () => new Response(null, { status: 201 }),
        'GET /api/v1/admin/groups': (request: Request) => {
          const query = new URL(request.url).searchParams;
          const search = (query.get('$search') ?? '').toLowerCase();
          const matching = groups.filter((group) => group.name.toLowerCase().includes(search));
          const skip = Number(query.get('skip') ?? 0);
          return jsonResponse(list(matching.slice(skip, skip + Number(query.get('top'))), matching.length));
        },
      },
    });
    await screen.findByRole('link', { name: 'Accounting' });
    fireEvent.click(screen.getByRole('button', { name: /Add to group/ }));
    const dialog = await dialogWith('Add user to group');
    const picker = within(dialog).getByRole('combobox', { name: 'Group' });
    fireEvent.mouseDown(picker);
    const pages = () => queriesTo(fetchMock, 'GET /api/v1/admin/groups').map((query) => [query.$search ?? '', query.skip, query.top, query.orderBy]);
    await waitFor(() => expect(document.querySelector('.ant-select-item-option[title="Group 001"]')).not.toBeNull());
    expect(pages()).toEqual([['', '0', '50', 'name asc']]);

    // Scrolled to its end, the list asks for the next page once the previous one is in.
    // The options' scrolling box (its class named after the list: ant-select-dropdown-list-holder).
    const scrollToEnd = () => fireEvent.scroll(document.querySelector('.ant-select-dropdown [class*="list-holder"]')!);
    const skips = () => pages().map((page) => page[1]);
    await waitFor(() => {
      scrollToEnd();
      expect(skips()).toContain('50');
    });
    await waitFor(() => {
      scrollToEnd();
      expect(skips()).toContain('100');
    });
    await waitFor(() => expect(picker.closest('.ant-select')).not.toHaveClass('ant-select-loading'));
    scrollToEnd();
    scrollToEnd();
    // All 120 are there: nothing more to ask for.
    expect(pages()).toEqual([
      ['', '0', '50', 'name asc'],
      ['', '50', '50', 'name asc'],
      ['', '100', '50', 'name asc'],
    ]);

    fireEvent.change(picker, { target: { value: 'group 119' } });
    await waitFor(() => expect(pages().at(-1)).toEqual(['group 119', '0', '50', 'name asc']));
    const found = await waitFor(() => {
      const options = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')];
      expect(options.map((option) => option.getAttribute('title'))).toEqual(['Group 119']);
      return options[0]!;
    });
    fireEvent.click(found);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByText('Add user to group')).not.toBeInTheDocument());
    expect(await bodiesTo(fetchMock, `POST ${BASE}/groups`)).toEqual([{ groupId: 'g119', permission: 'Reader' }]);
  });

  it('shows the tenant role badges with how each is held, global roles in their own colour', async () => {
    await renderDetail();
    fireEvent.click(await screen.findByRole('tab', { name: 'Tenants' }));

    const admin = (await screen.findByText('CRM: Admin')).closest('.role-tag')!;
    // The Role access card shows Sales too: the Tenants tab's is in its table.
    const sales = screen.getAllByText('CRM: Sales').find((name) => name.closest('tr'))!.closest('.role-tag')!;
    expect(sales.closest('tr')).toHaveTextContent('Acme');
    expect(sales).toHaveTextContent('CRM: Sales · own name');
    expect(admin).toHaveTextContent('CRM: Admin · inherited from Global');
    expect(admin.closest('[data-global]')).toHaveAttribute('data-global', 'true');
    expect(sales.closest('[data-global]')).toHaveAttribute('data-global', 'false');
    expect(admin.className).not.toBe(sales.className);
  });
});

describe('UserDetailPage: role access', { timeout: PAGE_TEST_TIMEOUT }, () => {
  const accessSwitch = (application: string) => screen.findByRole('switch', { name: `Access to ${application}` });

  it('turning access on asks for roles, keeping hierarchy roles out of reach, and grants them globally', async () => {
    const { fetchMock } = await renderDetail({
      api: { [`PUT ${BASE}/roles/app-billing`]: { ...billing, hasAccess: true } },
    });
    fireEvent.click(await accessSwitch('Billing'));

    const dialog = await dialogWith('Roles in Billing');
    expect(within(dialog).getByRole('checkbox', { name: /Approver/ })).toBeDisabled();
    expect(within(dialog).getByText('Global')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Select at least one role')).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Viewer/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sentTo(fetchMock, `PUT ${BASE}/roles/app-billing`)).toHaveLength(1));
    expect(await bodiesTo(fetchMock, `PUT ${BASE}/roles/app-billing`)).toEqual([{ roleIds: ['r-viewer'] }]);
    expect(await screen.findByText('The roles in Billing have been saved')).toBeInTheDocument();
    await waitFor(() => expect(sentTo(fetchMock, `GET ${BASE}/roles`)).toHaveLength(2));
  });

  it('offers no Global to a Manager, who must name a tenant', async () => {
    const { fetchMock } = await renderDetail({ roles: ['Manager', 'AreaAdministrator'], api: { [`PUT ${BASE}/roles/app-billing`]: billing } });
    fireEvent.click(await accessSwitch('Billing'));
    const dialog = await dialogWith('Roles in Billing');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Viewer/ }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Tenant required')).toBeInTheDocument();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Tenant' }));
    expect(await screen.findByTitle('Acme (North)')).toBeInTheDocument();
    expect(screen.queryByTitle('Global')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTitle('Acme (North)'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sentTo(fetchMock, `PUT ${BASE}/roles/app-billing`)).toHaveLength(1));
    expect(await bodiesTo(fetchMock, `PUT ${BASE}/roles/app-billing`)).toEqual([{ tenantId: 't1', roleIds: ['r-viewer'] }]);
  });

  it('adds roles in a tenant, starting from the roles the user already holds there', async () => {
    const { fetchMock } = await renderDetail({ api: { [`PUT ${BASE}/roles/app-crm`]: crm } });
    fireEvent.click(await screen.findByRole('button', { name: 'Add roles in CRM' }));
    const dialog = await dialogWith('Roles in CRM');
    expect(within(dialog).getByRole('checkbox', { name: /Sales/ })).not.toBeChecked();

    await choose('Tenant', 'Acme (North)', dialog);
    await waitFor(() => expect(within(dialog).getByRole('checkbox', { name: /Sales/ })).toBeChecked());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sentTo(fetchMock, `PUT ${BASE}/roles/app-crm`)).toHaveLength(1));
    expect(await bodiesTo(fetchMock, `PUT ${BASE}/roles/app-crm`)).toEqual([{ tenantId: 't1', roleIds: ['r-sales'] }]);
  });

  it('turning access off asks "Are you sure to revoke this access?" and then revokes it', async () => {
    const { fetchMock } = await renderDetail({ api: { [`DELETE ${BASE}/roles/app-crm`]: { ...crm, hasAccess: false, roles: [] } } });
    fireEvent.click(await accessSwitch('CRM'));

    const dialog = await dialogWith('Are you sure to revoke this access?');
    expect(dialog).toHaveTextContent('Every role the user holds in CRM in their own name is removed.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));

    await waitFor(() => expect(sentTo(fetchMock, `DELETE ${BASE}/roles/app-crm`)).toHaveLength(1));
    expect(queriesTo(fetchMock, `DELETE ${BASE}/roles/app-crm`)).toEqual([{}]);
    expect(await screen.findByText('The access to CRM has been revoked')).toBeInTheDocument();
  });

  it('names the application and the group when the access comes through a group, and sends nothing', async () => {
    const viaGroups = { ...crm, byHierarchy: false, throughGroups: ['Sales team', 'Leads'] };
    const { fetchMock } = await renderDetail({ api: { [`GET ${BASE}/roles`]: { items: [billing, viaGroups] } } });
    fireEvent.click(await accessSwitch('CRM'));

    const dialog = await dialogWith('This access comes through a group');
    expect(dialog).toHaveTextContent('Access to CRM comes through the group "Sales team", "Leads": change the roles of that group, or remove the user from it.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(sentTo(fetchMock, `DELETE ${BASE}/roles/app-crm`)).toHaveLength(0);
    expect(await accessSwitch('CRM')).toHaveAttribute('aria-checked', 'true');
  });

  it('tells a non-Administrator that only an Administrator can revoke access by hierarchy, and sends nothing', async () => {
    const { fetchMock } = await renderDetail({ roles: ['Manager', 'AreaAdministrator'] });
    fireEvent.click(await accessSwitch('CRM'));

    const dialog = await dialogWith('Only Admin can revoke this access');
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(sentTo(fetchMock, `DELETE ${BASE}/roles/app-crm`)).toHaveLength(0);
    expect(await accessSwitch('CRM')).toHaveAttribute('aria-checked', 'true');
  });

  it('shows the server’s refusal to revoke inherited access in the banner', async () => {
    await renderDetail({
      api: {
        [`GET ${BASE}/roles`]: { items: [{ ...crm, byHierarchy: false }] },
        [`DELETE ${BASE}/roles/app-crm`]: jsonResponse({ code: 'roles.admin_only', message: 'Only Admin can revoke this access' }, 403),
      },
      roles: ['Manager', 'AreaAdministrator'],
    });
    fireEvent.click(await accessSwitch('CRM'));
    fireEvent.click(within(await dialogWith('Are you sure to revoke this access?')).getByRole('button', { name: 'OK' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An error occurred');
    expect(alert).toHaveTextContent('Only Admin can revoke this access');
  });

  it('removes an own badge alone; inherited badges cannot be removed', async () => {
    const { fetchMock } = await renderDetail({ api: { [`DELETE ${BASE}/roles/app-crm`]: crm } });
    const sales = (await screen.findByText('(Acme)')).closest<HTMLElement>('.role-tag')!;
    expect(sales).toHaveTextContent('CRM: Sales (Acme) · own name');
    expect(screen.getByText('(Acme Group)').closest('.role-tag')).toHaveTextContent('CRM: Lead (Acme Group) · through the group Leads');

    expect(screen.queryByRole('button', { name: 'Remove the role Lead' })).not.toBeInTheDocument();
    fireEvent.click(within(sales).getByRole('button', { name: 'Remove the role Sales' }));
    fireEvent.click(within(await dialogWith('Remove the role Sales in CRM?')).getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(queriesTo(fetchMock, `DELETE ${BASE}/roles/app-crm`)).toEqual([{ roleId: 'r-sales', tenantId: 't1' }]));
    expect(screen.getByText('(Acme)')).toBeInTheDocument();
    expect(await screen.findByText('The role Sales has been removed')).toBeInTheDocument();
  });

  it('says nothing succeeded when the server refuses to revoke', async () => {
    await renderDetail({
      api: {
        [`GET ${BASE}/roles`]: { items: [{ ...crm, byHierarchy: false }] },
        [`DELETE ${BASE}/roles/app-crm`]: () => jsonResponse({ code: 'roles.admin_only', message: 'Only Admin can revoke this access' }, 403),
      },
    });
    fireEvent.click(await accessSwitch('CRM'));
    fireEvent.click(within(await dialogWith('Are you sure to revoke this access?')).getByRole('button', { name: 'OK' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Only Admin can revoke this access');
    expect(screen.queryByText('The access to CRM has been revoked')).not.toBeInTheDocument();
  });

  it('leaves out the applications marked hideInUserList (the product’s own clients)', async () => {
    const portal = { ...billing, applicationId: 'portal', applicationName: 'portal', displayName: 'Portal', hideInUserList: true };
    await renderDetail({ api: { [`GET ${BASE}/roles`]: { items: [billing, portal, { ...crm, hideInUserList: false }] } } });

    expect(await accessSwitch('Billing')).toBeInTheDocument();
    expect(await accessSwitch('CRM')).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Access to Portal' })).not.toBeInTheDocument();
    expect(screen.queryByText('Portal')).not.toBeInTheDocument();
  });

  it('disables the switches for a caller who is neither Administrator nor Manager', async () => {
    await renderDetail({ roles: ['AreaAdministrator'] });

    expect(await accessSwitch('Billing')).toBeDisabled();
    expect(await accessSwitch('CRM')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Remove the role Sales' })).not.toBeInTheDocument();
  });
});
