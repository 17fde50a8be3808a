import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../test-utils';
import { useFeedback } from '../directory/components/feedback';
import { bodiesTo, bodyRows, choose, dialogWith, groupRow, list, PAGE_TEST_TIMEOUT, queriesTo, sentTo, userRow } from '../directory/test-helpers';
import { AddTenantMemberDialog } from './AddTenantMemberDialog';
import { RevokeAccessDialog } from './RevokeAccessDialog';
import TenantDetailPage from './TenantDetailPage';
import { acme, madrid, memberRow, NAMESPACES, paris, parisDetail, TENANTS } from './test-data';

const MEMBERS = 'GET /api/v1/admin/tenants/t-paris/members';
const ADD = 'POST /api/v1/admin/tenants/t-paris/members';
const REVOKE = 'POST /api/v1/admin/tenants/members/revokeAccess';
const OWN = { via: 'own', groupName: null, tenantName: null } as const;

const ana = memberRow({
  identityId: 'u-ana',
  displayName: 'Ana Lopez',
  email: 'ana@example.com',
  hierarchyType: 'Both',
  roles: [
    { roleId: 'r-crm-sales', roleName: 'Sales', applicationId: 'crm', applicationName: 'crm', applicationDisplayName: 'CRM', hierarchyType: 'Own', origins: [OWN] },
    {
      roleId: 'r-wiki-editor',
      roleName: 'Editor',
      applicationId: 'wiki',
      applicationName: 'wiki',
      applicationDisplayName: 'Wiki',
      hierarchyType: 'ByHierarchy',
      origins: [{ via: 'hierarchy', groupName: null, tenantName: 'Acme' }],
    },
  ],
});
const salesTeam = memberRow({
  id: null,
  identityId: 'g-sales',
  identityType: 'Group',
  displayName: 'Sales team',
  email: null,
  isInheritable: false,
  hierarchyType: 'ByHierarchy',
  roles: [
    {
      roleId: 'r-crm-viewer',
      roleName: 'Viewer',
      applicationId: 'crm',
      applicationName: 'crm',
      applicationDisplayName: 'CRM',
      hierarchyType: 'ByHierarchy',
      origins: [{ via: 'hierarchy', groupName: null, tenantName: 'Acme' }],
    },
  ],
});

const ROLES = list([
  { id: 'r-crm-sales', name: 'Sales', description: null, byHierarchy: false, applicationId: 'crm', applicationName: 'CRM' },
  { id: 'r-crm-viewer', name: 'Viewer', description: null, byHierarchy: false, applicationId: 'crm', applicationName: 'CRM' },
  { id: 'r-wiki-editor', name: 'Editor', description: null, byHierarchy: false, applicationId: 'wiki', applicationName: 'Wiki' },
]);

const LOOKUPS: ApiRoutes = {
  'GET /api/v1/admin/applications/approles': ROLES,
  'GET /api/v1/admin/users': list([userRow({ id: 'u-bob', userName: 'bob@example.com', firstName: 'Bob', lastName: 'Builder' })]),
  'GET /api/v1/admin/groups': list([groupRow({ id: 'g-ops', name: 'Operations' })]),
};

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.restoreAllMocks());

async function renderMembers(options: { roles?: string[]; api?: ApiRoutes } = {}) {
  const rendered = await renderPage(<TenantDetailPage />, {
    route: '/tenants/t-paris',
    pattern: '/tenants/:id',
    roles: options.roles,
    namespaces: [...NAMESPACES],
    api: {
      'GET /api/v1/admin/tenants/t-paris': parisDetail,
      [TENANTS]: list([acme, paris, madrid]),
      [MEMBERS]: list([ana, salesTeam]),
      ...LOOKUPS,
      ...options.api,
    },
  });
  fireEvent.click(await screen.findByRole('tab', { name: 'Members' }));
  await screen.findByText('Ana Lopez');
  return rendered;
}

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('the Members tab', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('lists the users and groups with their access and roles, leaving out global users by default', async () => {
    const { fetchMock } = await renderMembers();

    expect(bodyRows()).toHaveLength(2);
    const anaRow = rowOf('Ana Lopez');
    expect(within(anaRow).getByText('ana@example.com')).toBeInTheDocument();
    expect(within(anaRow).getByRole('img', { name: 'User' })).toBeInTheDocument();
    expect(within(anaRow).getByText('Inheritable')).toHaveClass('ant-tag');
    expect(within(anaRow).getByText('Both')).toHaveClass('ant-tag');
    // One way to show a role: the application's display name, the role, how it is held.
    expect(within(anaRow).getByText('CRM: Sales').closest('.ant-tag')).toHaveTextContent('CRM: Sales · own name');
    expect(within(anaRow).getByText('Wiki: Editor').closest('.ant-tag')).toHaveTextContent('Wiki: Editor · inherited from Acme');
    const teamRow = rowOf('Sales team');
    expect(within(teamRow).getByRole('img', { name: 'Group' })).toBeInTheDocument();
    expect(within(teamRow).getByText('By hierarchy')).toHaveClass('ant-tag');
    expect(within(teamRow).queryByText('Inheritable')).not.toBeInTheDocument();
    expect(queriesTo(fetchMock, MEMBERS)[0]).toEqual({ skip: '0', top: '10', includeRoles: 'true', excludeUserGlobal: 'true' });
  });

  it('includes the global users with the Include Users Global switch, and leaves them out again', async () => {
    const gus = memberRow({ identityId: 'u-gus', displayName: 'Gus Global', hierarchyType: 'ByHierarchy' });
    const { fetchMock } = await renderMembers({
      api: {
        [MEMBERS]: (request: Request) =>
          jsonResponse(list(new URL(request.url).searchParams.get('excludeUserGlobal') === 'false' ? [ana, salesTeam, gus] : [ana, salesTeam])),
      },
    });
    const toggle = screen.getByRole('switch', { name: 'Include Users Global' });
    expect(toggle).not.toBeChecked();

    fireEvent.click(toggle);
    expect(await screen.findByText('Gus Global')).toBeInTheDocument();
    expect(queriesTo(fetchMock, MEMBERS).at(-1)).toMatchObject({ excludeUserGlobal: 'false', includeRoles: 'true' });

    fireEvent.click(toggle);
    await waitFor(() => expect(screen.queryByText('Gus Global')).not.toBeInTheDocument());
    expect(toggle).not.toBeChecked();
  });

  it('queues the export of the members, with or without the global users as the switch says', async () => {
    const download = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    const { fetchMock } = await renderMembers({ api: { 'GET /api/v1/admin/tenants/t-paris/members/export': jsonResponse({ jobId: 'job-2' }, 202) } });

    fireEvent.click(screen.getByRole('switch', { name: 'Include Users Global' }));
    fireEvent.click(screen.getByRole('button', { name: /Export members/ }));

    expect(await screen.findByText('Operation Completed Successfully')).toBeInTheDocument();
    expect(screen.getByText('Your operation will be processed in background.')).toBeInTheDocument();
    expect(queriesTo(fetchMock, 'GET /api/v1/admin/tenants/t-paris/members/export')).toEqual([{ excludeUserGlobal: 'false' }]);
    expect(download).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it('says why the members export is refused', async () => {
    const refusal = { code: 'errors.not_found', message: 'Not found', errors: [] };
    await renderMembers({ api: { 'GET /api/v1/admin/tenants/t-paris/members/export': jsonResponse(refusal, 404) } });

    fireEvent.click(await screen.findByRole('button', { name: /Export members/ }));

    expect(await screen.findByText('Not found')).toBeInTheDocument();
    expect(screen.queryByText('Operation Completed Successfully')).not.toBeInTheDocument();
  });

  describe('Add Member to Tenant', () => {
    /** Chooses the identity type, then (once its picker is there) the user or group. */
    async function pickIdentity(dialog: HTMLElement, identityType: 'User' | 'Group', option: string) {
      await choose('Identity type', identityType, dialog);
      await waitFor(() => expect(within(dialog).getByRole('combobox', { name: identityType })).toBeEnabled());
      await choose(identityType, option, dialog);
    }

    async function openDialog(api: ApiRoutes = {}) {
      const rendered = await renderMembers({ api });
      fireEvent.click(screen.getByRole('button', { name: /Add member/ }));
      return { ...rendered, dialog: await dialogWith('Add Member to Tenant') };
    }

    it('requires the identity type, a user or group, and a role', async () => {
      const { dialog, fetchMock } = await openDialog();
      expect(dialog.closest('.ant-modal')).toHaveStyle({ width: '600px' });
      expect(within(dialog).getByRole('combobox', { name: 'User' })).toBeDisabled();

      fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

      expect(await within(dialog).findByText('Choose the identity type')).toBeInTheDocument();
      expect(within(dialog).getByText('Choose a user or a group')).toBeInTheDocument();
      expect(within(dialog).getByText('Select at least one role')).toBeInTheDocument();
      expect(sentTo(fetchMock, ADD)).toHaveLength(0);
    });

    it('gives a user roles here, inheritable by default, and lists them', async () => {
      const { dialog, fetchMock } = await openDialog({ [ADD]: () => jsonResponse(ana, 201) });
      expect(within(dialog).getByRole('switch', { name: 'Inheritable by child tenants' })).toBeChecked();
      expect(within(dialog).getByRole('checkbox', { name: 'Global' })).not.toBeChecked();

      await pickIdentity(dialog, 'User', 'bob@example.com (Bob Builder)');
      await choose('Roles', 'Sales', dialog);
      await choose('Roles', 'Editor', dialog);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

      expect(await screen.findByText('The member has been added')).toBeInTheDocument();
      expect(await bodiesTo(fetchMock, ADD)).toEqual([
        { identityType: 'User', identityId: 'u-bob', isInheritable: true, global: false, roleIds: ['r-crm-sales', 'r-wiki-editor'] },
      ]);
      expect(queriesTo(fetchMock, 'GET /api/v1/admin/applications/approles')).toEqual([{ top: '10000' }]);
      await waitFor(() => expect(sentTo(fetchMock, MEMBERS).length).toBeGreaterThan(1));
    });

    it('gives a group roles everywhere with Global, not inheritable, and starts the choice again when the type changes', async () => {
      const { dialog, fetchMock } = await openDialog({ [ADD]: () => jsonResponse(salesTeam, 201) });

      await pickIdentity(dialog, 'User', 'bob@example.com (Bob Builder)');
      await pickIdentity(dialog, 'Group', 'Operations');
      await choose('Roles', 'Viewer', dialog);
      fireEvent.click(within(dialog).getByRole('switch', { name: 'Inheritable by child tenants' }));
      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Global' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

      await waitFor(() => expect(sentTo(fetchMock, ADD)).toHaveLength(1));
      expect(await bodiesTo(fetchMock, ADD)).toEqual([
        { identityType: 'Group', identityId: 'g-ops', isInheritable: false, global: true, roleIds: ['r-crm-viewer'] },
      ]);
    });

    it('shows the server’s refusal in the dialog', async () => {
      const { dialog } = await openDialog({
        [ADD]: () =>
          jsonResponse({ code: 'tenants.identity_roles_forbidden', message: 'Only administrators can give or take away the roles of the Identity application' }, 403),
      });
      await pickIdentity(dialog, 'User', 'bob@example.com (Bob Builder)');
      await choose('Roles', 'Sales', dialog);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

      expect(await within(dialog).findByText('Only administrators can give or take away the roles of the Identity application')).toBeInTheDocument();
      expect(screen.queryByText('The member has been added')).not.toBeInTheDocument();
    });

    it('does not offer Global to someone who is not an administrator', async () => {
      await renderPage(<AddTenantMemberDialog tenantId="t-paris" withGlobal={false} onAdded={() => undefined} onClose={() => undefined} />, {
        roles: ['Manager'],
        namespaces: [...NAMESPACES],
        api: LOOKUPS,
      });
      const dialog = await dialogWith('Add Member to Tenant');
      expect(within(dialog).getByRole('combobox', { name: 'Roles' })).toBeInTheDocument();
      expect(within(dialog).queryByRole('checkbox', { name: 'Global' })).not.toBeInTheDocument();
    });
  });

  describe('Revoke access', () => {
    it('takes away the chosen applications’ roles, and what comes by hierarchy when asked, after confirmation', async () => {
      const { fetchMock } = await renderMembers({ api: { [REVOKE]: () => jsonResponse({ ...ana, roles: [] }) } });

      fireEvent.click(screen.getByLabelText('Revoke the access of Ana Lopez'));
      const dialog = await dialogWith('Revoke the access of Ana Lopez');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
      expect(await within(dialog).findByText('Select at least one application')).toBeInTheDocument();

      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Wiki' }));
      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Also remove what comes by hierarchy' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
      const confirm = await dialogWith('Are you sure to revoke this access?');
      fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));

      expect(await screen.findByText('The access has been revoked')).toBeInTheDocument();
      expect(await bodiesTo(fetchMock, REVOKE)).toEqual([
        { tenantId: 't-paris', userId: 'u-ana', isGroup: false, applicationIds: ['wiki'], includeParent: true },
      ]);
    });

    it('sends nothing when the confirmation is cancelled, and marks a group as one', async () => {
      const { fetchMock } = await renderMembers({ api: { [REVOKE]: () => jsonResponse({ ...salesTeam, roles: [] }) } });

      fireEvent.click(screen.getByLabelText('Revoke the access of Sales team'));
      let dialog = await dialogWith('Revoke the access of Sales team');
      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'CRM' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
      fireEvent.click(within(await dialogWith('Are you sure to revoke this access?')).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByText('Are you sure to revoke this access?')).not.toBeInTheDocument());
      expect(sentTo(fetchMock, REVOKE)).toHaveLength(0);

      dialog = await dialogWith('Revoke the access of Sales team');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
      fireEvent.click(within(await dialogWith('Are you sure to revoke this access?')).getByRole('button', { name: 'Revoke' }));
      await waitFor(() => expect(sentTo(fetchMock, REVOKE)).toHaveLength(1));
      expect(await bodiesTo(fetchMock, REVOKE)).toEqual([
        { tenantId: 't-paris', userId: 'g-sales', isGroup: true, applicationIds: ['crm'], includeParent: false },
      ]);
    });

    it('shows the server’s reason when the revocation is refused', async () => {
      await renderMembers({
        api: { [REVOKE]: () => jsonResponse({ code: 'tenants.hierarchy_admin_only', message: 'Only Admin can revoke this access' }, 403) },
      });
      fireEvent.click(screen.getByLabelText('Revoke the access of Ana Lopez'));
      const dialog = await dialogWith('Revoke the access of Ana Lopez');
      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'CRM' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
      fireEvent.click(within(await dialogWith('Are you sure to revoke this access?')).getByRole('button', { name: 'Revoke' }));

      expect(await within(dialog).findByText('Only Admin can revoke this access')).toBeInTheDocument();
    });

    it('keeps the access that only comes by hierarchy from someone who is not an administrator', async () => {
      function Harness() {
        const feedback = useFeedback();
        return (
          <>
            <RevokeAccessDialog tenantId="t-paris" member={ana} isAdministrator={false} feedback={feedback} onRevoked={() => undefined} onClose={() => undefined} />
            {feedback.holder}
          </>
        );
      }
      const { fetchMock } = await renderPage(<Harness />, { roles: ['Manager'], namespaces: [...NAMESPACES], api: { [REVOKE]: () => jsonResponse(ana) } });
      const dialog = await dialogWith('Revoke the access of Ana Lopez');

      expect(dialog).toHaveTextContent('Only Admin can revoke this access');
      expect(within(dialog).getByRole('checkbox', { name: 'Wiki' })).toBeDisabled();
      expect(within(dialog).getByRole('checkbox', { name: 'CRM' })).toBeEnabled();
      expect(within(dialog).queryByRole('checkbox', { name: 'Also remove what comes by hierarchy' })).not.toBeInTheDocument();

      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'CRM' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
      fireEvent.click(within(await dialogWith('Are you sure to revoke this access?')).getByRole('button', { name: 'Revoke' }));
      await waitFor(() => expect(sentTo(fetchMock, REVOKE)).toHaveLength(1));
      expect(await bodiesTo(fetchMock, REVOKE)).toEqual([
        { tenantId: 't-paris', userId: 'u-ana', isGroup: false, applicationIds: ['crm'], includeParent: false },
      ]);
    });
  });
});
