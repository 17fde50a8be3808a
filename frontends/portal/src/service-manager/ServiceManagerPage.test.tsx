import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { FakeAuth, createTestI18n, makeUser, myProfile, renderSignedIn, stubApi } from '../test-utils';
import type { ServiceManagerPermissions, ServiceManagerUser } from './service-manager-api';
import ServiceManagerPage from './ServiceManagerPage';

const ACME = { id: '10000000-0000-0000-0000-000000000001', title: 'Acme' };
const BETA = { id: '10000000-0000-0000-0000-000000000002', title: 'Beta' };
const TENANTS = 'GET /api/v1/admin/serviceManager/tenants';
const USER_ID = 'b0000000-0000-0000-0000-000000000001';
const OWN = { via: 'own', groupName: null, tenantName: null } as const;

let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
});

const ANN: ServiceManagerUser = {
  id: USER_ID,
  fullName: 'Ann Lee',
  userName: 'ann@acme.com',
  email: 'ann@acme.com',
  roles: [
    { roleId: 'r1', roleName: 'Reader', applicationId: 'crm', applicationName: 'CRM', applicationDisplayName: 'CRM', hierarchyType: 'Own', origins: [OWN] },
    { roleId: 'r3', roleName: 'Billing', applicationId: 'erp', applicationName: 'ERP', applicationDisplayName: 'ERP', hierarchyType: 'Own', origins: [OWN] },
  ],
};

const PERMISSIONS: ServiceManagerPermissions = {
  userId: USER_ID,
  tenantId: ACME.id,
  isInheritable: false,
  applications: [
    {
      applicationId: 'crm',
      applicationName: 'CRM',
      roles: [
        { roleId: 'r1', roleName: 'Reader', held: 'Own', editable: true, reason: null, origins: [OWN] },
        { roleId: 'r2', roleName: 'Auditor', held: 'ByHierarchy', editable: false, reason: 'group', origins: [{ via: 'group', groupName: 'Sales', tenantName: null }] },
        { roleId: 'r4', roleName: 'Writer', held: null, editable: true, reason: null, origins: [] },
      ],
    },
    {
      applicationId: 'erp',
      applicationName: 'ERP',
      roles: [{ roleId: 'r3', roleName: 'Billing', held: 'Own', editable: false, reason: 'notManaged', origins: [OWN] }],
    },
  ],
};

function renderPage(routes: Record<string, unknown>) {
  const fetchMock = stubApi({ 'GET /api/v1/profile': myProfile({ roles: ['ServiceManager'] }), ...routes });
  renderSignedIn(<ServiceManagerPage />, { i18n, auth: new FakeAuth(makeUser({ roles: ['ServiceManager'] })) });
  const requests = () => fetchMock.mock.calls.map(([input]) => input as Request);
  return { requests };
}

describe('ServiceManagerPage', () => {
  it('selects the first tenant at once and lists its users with their roles', async () => {
    const { requests } = renderPage({
      [TENANTS]: { items: [ACME, BETA], count: 2 },
      [`GET /api/v1/admin/serviceManager/${ACME.id}/users`]: { items: [ANN], count: 1 },
    });

    expect(await screen.findByText('Ann Lee')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Service Manager' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Tenant' }).closest('.ant-select')).toHaveTextContent('Acme');
    expect(screen.getByText('CRM: Reader').closest('.role-tag')).toHaveTextContent('CRM: Reader · own name');
    expect(screen.getByText('ERP: Billing')).toBeInTheDocument();
    const tenantsCall = requests().find((request) => request.url.includes('/serviceManager/tenants'))!;
    expect(Object.fromEntries(new URL(tenantsCall.url).searchParams)).toEqual({ skip: '0', take: '10', orderBy: 'title asc' });
    expect(requests().some((request) => request.url.includes(BETA.id))).toBe(false);
  });

  it('shows an empty state with a refresh link when the user has no tenant, and reads again on refresh', async () => {
    let calls = 0;
    renderPage({
      [TENANTS]: () => {
        calls += 1;
        return new Response(JSON.stringify(calls === 1 ? { items: [], count: 0 } : { items: [ACME], count: 1 }), { headers: { 'Content-Type': 'application/json' } });
      },
      [`GET /api/v1/admin/serviceManager/${ACME.id}/users`]: { items: [ANN], count: 1 },
    });

    expect(await screen.findByText('You manage no tenant yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));

    expect(await screen.findByText('Ann Lee')).toBeInTheDocument();
    expect(screen.queryByText('You manage no tenant yet.')).not.toBeInTheDocument();
  });

  it('shows the roles the user holds in the editor, saying which may not be changed here and why', async () => {
    renderPage({
      [TENANTS]: { items: [ACME], count: 1 },
      [`GET /api/v1/admin/serviceManager/${ACME.id}/users`]: { items: [ANN], count: 1 },
      [`GET /api/v1/admin/serviceManager/${ACME.id}/users/${USER_ID}/permissions`]: PERMISSIONS,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit the roles of Ann Lee' }));
    const list = await screen.findByRole('region', { name: 'Roles' });

    expect(within(list).queryByText('No role yet.')).not.toBeInTheDocument();
    const row = (roleId: string) => within(list).getByTestId(`role-${roleId}`);
    // Held in their own name and changeable: removable, no reason.
    expect(row('r1')).toHaveTextContent('CRM: Reader · own name');
    expect(within(row('r1')).getByRole('button', { name: 'Remove Reader (CRM)' })).toBeInTheDocument();
    // Held through a group: the group named, the reason in plain words, nothing to press.
    expect(row('r2')).toHaveTextContent('CRM: Auditor · through the group Sales');
    expect(row('r2')).toHaveTextContent('Held through a group: it changes on the group.');
    expect(within(row('r2')).queryByRole('button')).not.toBeInTheDocument();
    // Their own, but outside what a service manager manages.
    expect(row('r3')).toHaveTextContent('ERP: Billing · own name');
    expect(row('r3')).toHaveTextContent('Not one of the roles a service manager manages.');
    expect(within(row('r3')).queryByRole('button')).not.toBeInTheDocument();
    // Not held: offered, not listed.
    expect(within(list).queryByTestId('role-r4')).not.toBeInTheDocument();
    // Nothing changed yet: nothing to save.
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('edits the user’s own roles in a dialog and sends them without the inherited ones', async () => {
    const { requests } = renderPage({
      [TENANTS]: { items: [ACME], count: 1 },
      [`GET /api/v1/admin/serviceManager/${ACME.id}/users`]: { items: [ANN], count: 1 },
      [`GET /api/v1/admin/serviceManager/${ACME.id}/users/${USER_ID}/permissions`]: PERMISSIONS,
      [`PUT /api/v1/admin/serviceManager/${ACME.id}/users/${USER_ID}/permissions`]: PERMISSIONS,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit the roles of Ann Lee' }));
    const list = await screen.findByRole('region', { name: 'Roles' });
    expect(within(list).getByText('Held through a group: it changes on the group.')).toBeInTheDocument();

    fireEvent.click(within(list).getByRole('button', { name: 'Remove Reader (CRM)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(requests().filter((request) => request.method === 'PUT')).toHaveLength(1));
    expect(await requests().find((request) => request.method === 'PUT')!.json()).toEqual({ isInheritable: false, roles: [] });
  });
});
