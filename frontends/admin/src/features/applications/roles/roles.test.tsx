import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderApp, renderPage, type ApiRoutes } from '../../../test-utils';
import { bodiesTo, bodyRows, dialogWith, list, PAGE_TEST_TIMEOUT, queriesTo, sentTo, type } from '../../directory/test-helpers';
import type { AppRole, RoleScope } from './app-roles-api';
import '../../directory/api/lookups-api';
import { ApplicationRolesTab } from './ApplicationRolesTab';
import RoleDetailPage from './RoleDetailPage';

const NAMESPACES = ['admin', 'directory', 'applicationRoles'] as const;
const ROLES = 'GET /api/v1/admin/app/crm/roles';

function role(overrides: Partial<AppRole> & Pick<AppRole, 'id' | 'name'>): AppRole {
  return {
    applicationId: 'crm',
    applicationName: 'CRM',
    description: null,
    byHierarchy: false,
    operationRequestVisibility: false,
    serviceManagerVisibility: false,
    holders: 0,
    scopesCount: 0,
    system: false,
    ...overrides,
  };
}

const reader = role({ id: 'r1', name: 'Reader', description: 'Reads the accounts', holders: 3, scopesCount: 2 });
const writer = role({ id: 'r2', name: 'Writer', byHierarchy: true });

beforeEach(() => sessionStorage.clear());

describe('ApplicationRolesTab', { timeout: PAGE_TEST_TIMEOUT }, () => {
  function renderTab(options: { roles?: string[]; api?: ApiRoutes; items?: AppRole[] } = {}) {
    return renderPage(<ApplicationRolesTab applicationId="crm" />, {
      route: '/applications/crm',
      roles: options.roles,
      namespaces: [...NAMESPACES],
      api: { [ROLES]: list(options.items ?? [reader, writer]), ...options.api },
    });
  }

  it('lists the application’s roles by name, each linking to its page with the trail back to the application', async () => {
    const { fetchMock } = await renderTab();

    const link = await screen.findByRole('link', { name: 'Open the role Reader' });
    expect(link).toHaveAttribute('href', '/applications/crm/roles/r1');
    const [first, second] = bodyRows();
    expect(first).toHaveTextContent('Reads the accounts');
    expect(within(first!).getByText('3')).toBeInTheDocument();
    expect(within(first!).getByText('2')).toBeInTheDocument();
    expect(within(second!).getByLabelText('By hierarchy')).toBeInTheDocument();
    expect(queriesTo(fetchMock, ROLES)[0]).toEqual({ skip: '0', top: '10', orderBy: 'name asc' });
  });

  it('asks for this application’s roles even with the directory’s role lookup loaded (both inject into one API)', async () => {
    const { fetchMock } = await renderTab();
    await screen.findByRole('link', { name: 'Open the role Reader' });
    expect(sentTo(fetchMock, ROLES)).toHaveLength(1);
    expect(sentTo(fetchMock, 'GET /api/v1/admin/applications/approles')).toHaveLength(0);
  });

  it('requires a name for a new role, then creates it with its flags', async () => {
    const { fetchMock } = await renderTab({
      api: { 'POST /api/v1/admin/app/crm/roles': () => jsonResponse(role({ id: 'r9', name: 'Auditor' }), 201) },
    });
    fireEvent.click(await screen.findByRole('button', { name: /New role/ }));
    const dialog = await dialogWith('New role');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please input your API title!')).toBeInTheDocument();

    type(within(dialog).getByLabelText('Name'), 'Auditor');
    type(within(dialog).getByLabelText('Description'), 'Reads the logs');
    fireEvent.click(within(dialog).getByLabelText('Visible to service managers'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('The role Auditor has been created')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/app/crm/roles')).toEqual([
      { name: 'Auditor', description: 'Reads the logs', byHierarchy: false, operationRequestVisibility: false, serviceManagerVisibility: true },
    ]);
  });

  it('shows the server’s refusal of a taken name under the name', async () => {
    await renderTab({
      api: {
        'POST /api/v1/admin/app/crm/roles': () =>
          jsonResponse(
            {
              code: 'errors.role_name_in_use',
              message: 'A role with this name already exists for this application',
              errors: [{ field: 'name', code: 'errors.role_name_in_use', message: 'A role with this name already exists for this application' }],
            },
            409,
          ),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: /New role/ }));
    const dialog = await dialogWith('New role');
    type(within(dialog).getByLabelText('Name'), 'reader');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await within(dialog).findByText('A role with this name already exists for this application')).toBeInTheDocument();
  });

  it('says how many hold a role before deleting it, then deletes it', async () => {
    const { fetchMock } = await renderTab({ api: { 'DELETE /api/v1/admin/app/crm/roles/r1': new Response(null, { status: 204 }) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the role Reader' }));

    const dialog = await dialogWith('Delete the role Reader?');
    expect(dialog).toHaveTextContent('3 users or groups hold this role and will lose it. Its access scopes are deleted with it.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('The role Reader has been deleted')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'DELETE /api/v1/admin/app/crm/roles/r1')).toHaveLength(1);
  });

  it('deletes nothing when the deletion is cancelled, and says when nobody holds the role', async () => {
    const { fetchMock } = await renderTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the role Writer' }));

    const dialog = await dialogWith('Delete the role Writer?');
    expect(dialog).toHaveTextContent('Nobody holds this role.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByText('Delete the role Writer?')).not.toBeInTheDocument());
    expect(sentTo(fetchMock, 'DELETE /api/v1/admin/app/crm/roles/r2')).toHaveLength(0);
  });

  it('marks a role the product relies on and offers no deletion of it', async () => {
    await renderTab({ items: [role({ id: 'r0', name: 'Administrator', system: true, applicationId: '1' })] });

    expect(await screen.findByText('Built-in')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete the role Administrator' })).toBeDisabled();
  });

  it('offers neither creation nor deletion to a read-only caller', async () => {
    await renderTab({ roles: ['TenantAdministrator'] });
    await screen.findByRole('link', { name: 'Open the role Reader' });

    expect(screen.queryByRole('button', { name: /New role/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete the role/ })).not.toBeInTheDocument();
  });
});

describe('RoleDetailPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  const ROLE = 'GET /api/v1/admin/app/crm/roles/r1';
  const SCOPES = 'GET /api/v1/admin/app/crm/roles/r1/scopes';
  const scopes: RoleScope[] = [
    { id: 's1', roleId: 'r1', scope: 'accounts.read' },
    { id: 's2', roleId: 'r1', scope: 'accounts/list' },
  ];

  /** The scopes table's row of `scope` (its buttons are found by label: role queries check every style sheet of the page under jsdom). */
  const scopeRow = async (scope: string) => (await screen.findByText(scope)).closest('tr')!;

  function renderRole(options: { roles?: string[]; api?: ApiRoutes; subject?: AppRole } = {}) {
    return renderPage(<RoleDetailPage />, {
      route: '/applications/crm/roles/r1',
      pattern: '/applications/:applicationId/roles/:id',
      roles: options.roles,
      namespaces: [...NAMESPACES],
      api: { [ROLE]: options.subject ?? reader, [SCOPES]: list(scopes), ...options.api },
    });
  }

  it('shows the role’s general properties and its access scopes, under a trail back to its application', async () => {
    const { fetchMock } = await renderRole();

    expect(await screen.findByRole('heading', { level: 1, name: 'Reader' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Applications' })).toHaveAttribute('href', '/applications');
    expect(screen.getByRole('link', { name: 'CRM' })).toHaveAttribute('href', '/applications/crm');
    expect(screen.getByLabelText('Name')).toHaveValue('Reader');
    expect(screen.getByLabelText('Description')).toHaveValue('Reads the accounts');
    expect(screen.getByRole('tab', { name: 'Role access scopes' })).toBeInTheDocument();
    expect(await screen.findByText('accounts.read')).toBeInTheDocument();
    expect(screen.getByText('accounts/list')).toBeInTheDocument();
    expect(queriesTo(fetchMock, SCOPES)[0]).toEqual({ skip: '0', top: '10', orderBy: 'scope asc' });
  });

  it('saves the general properties', async () => {
    const { fetchMock } = await renderRole({
      api: { 'PUT /api/v1/admin/app/crm/roles/r1': () => jsonResponse({ ...reader, name: 'Readers' }) },
    });
    type(await screen.findByLabelText('Name'), 'Readers');
    fireEvent.click(screen.getByLabelText('By hierarchy'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'PUT /api/v1/admin/app/crm/roles/r1')).toEqual([
      { name: 'Readers', description: 'Reads the accounts', byHierarchy: true, operationRequestVisibility: false, serviceManagerVisibility: false },
    ]);
  });

  it('keeps the name of a role the product relies on', async () => {
    await renderRole({ subject: role({ id: 'r1', name: 'Administrator', system: true }) });

    expect(await screen.findByLabelText('Name')).toBeDisabled();
    expect(screen.getByText('The product relies on this role: it cannot be renamed or deleted.')).toBeInTheDocument();
    expect(screen.getByLabelText('Description')).toBeEnabled();
  });

  it('shows the character rule for a new scope and refuses any other character before sending', async () => {
    const { fetchMock } = await renderRole({
      api: { 'POST /api/v1/admin/app/crm/roles/r1/scopes': () => jsonResponse({ id: 's3', roleId: 'r1', scope: 'orders:write' }, 201) },
    });
    fireEvent.click(await screen.findByRole('button', { name: /New role's scope/ }));
    const dialog = await dialogWith("New role's scope");
    expect(dialog).toHaveTextContent('Lowercase letters, numbers and only . / : _ - allowed');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please enter the scope!')).toBeInTheDocument();
    type(within(dialog).getByLabelText('Scope'), 'Orders Write');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Only lowercase letters, numbers and . / : _ - are allowed')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'POST /api/v1/admin/app/crm/roles/r1/scopes')).toHaveLength(0);

    type(within(dialog).getByLabelText('Scope'), 'orders:write');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('The scope orders:write has been added')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/app/crm/roles/r1/scopes')).toEqual([{ scope: 'orders:write' }]);
  });

  it('changes a scope and shows the server’s refusal of a duplicate under the field', async () => {
    let calls = 0;
    const { fetchMock } = await renderRole({
      api: {
        'PUT /api/v1/admin/app/crm/roles/r1/scopes/s1': () =>
          ++calls === 1
            ? jsonResponse(
                {
                  code: 'errors.scope_in_use',
                  message: 'This scope already exists for this role',
                  errors: [{ field: 'scope', code: 'errors.scope_in_use', message: 'This scope already exists for this role' }],
                },
                409,
              )
            : jsonResponse({ id: 's1', roleId: 'r1', scope: 'accounts.write' }),
      },
    });
    fireEvent.click(within(await scopeRow('accounts.read')).getByLabelText('Edit the scope accounts.read'));
    const dialog = await dialogWith("Edit the role's scope");
    expect(within(dialog).getByLabelText('Scope')).toHaveValue('accounts.read');

    type(within(dialog).getByLabelText('Scope'), 'accounts/list');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This scope already exists for this role')).toBeInTheDocument();

    type(within(dialog).getByLabelText('Scope'), 'accounts.write');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'PUT /api/v1/admin/app/crm/roles/r1/scopes/s1')).toEqual([{ scope: 'accounts/list' }, { scope: 'accounts.write' }]);
  });

  it('deletes a scope after confirmation', async () => {
    const { fetchMock } = await renderRole({ api: { 'DELETE /api/v1/admin/app/crm/roles/r1/scopes/s2': new Response(null, { status: 204 }) } });
    fireEvent.click(within(await scopeRow('accounts/list')).getByLabelText('Delete the scope accounts/list'));
    fireEvent.click(within(await dialogWith('Delete the scope accounts/list from this role?')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('The scope accounts/list has been deleted')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'DELETE /api/v1/admin/app/crm/roles/r1/scopes/s2')).toHaveLength(1);
  });

  it('lets a read-only caller read the role and its scopes without changing them', async () => {
    await renderRole({ roles: ['TenantAdministrator'] });

    expect(await screen.findByText('You can read this role but not change it.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(await screen.findByText('accounts.read')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /New role's scope/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete the scope/ })).not.toBeInTheDocument();
  });

  it('shows the spec’s message for a role of another application or an unknown one', async () => {
    await renderRole({
      api: {
        [ROLE]: jsonResponse({ code: 'appRoles.role_not_found', message: 'Role not found or not available for the selected application', errors: [] }, 404),
      },
    });

    expect(await screen.findByText('Role not found or not available for the selected application')).toBeInTheDocument();
  });

  it('is the console’s page at /admin/applications/{applicationId}/roles/{id}', async () => {
    await renderApp({ path: '/applications/crm/roles/r1', namespaces: [...NAMESPACES], api: { [ROLE]: reader, [SCOPES]: list(scopes) } });

    expect(await screen.findByRole('heading', { level: 1, name: 'Reader' }, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.queryByText('Not available yet')).not.toBeInTheDocument();
  }, 40_000);
});
