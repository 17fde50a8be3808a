import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestI18n, jsonResponse, renderSignedIn, stubApi } from '../test-utils';
import type { ClientUser, IdentityPermissions } from './clients-api';
import { UserWizard } from './UserWizard';

const TENANT = { id: '10000000-0000-0000-0000-000000000001', title: 'Acme' };
const DEFAULT_AREA = { id: 'a0000000-0000-0000-0000-000000000001', name: 'Default', default: true, system: false };
const CUSTOMERS = { id: 'a0000000-0000-0000-0000-000000000002', name: 'Customers', default: false, system: false };
const PARTNERS = { id: 'a0000000-0000-0000-0000-000000000003', name: 'Partners', default: false, system: false };
const SYSTEM = { id: 'a0000000-0000-0000-0000-000000000004', name: 'System', default: false, system: true };
const USERS = `/api/v1/admin/clients/${TENANT.id}/users`;
const USER_ID = 'b0000000-0000-0000-0000-000000000001';

let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
});

function clientUser(overrides: Partial<ClientUser> = {}): ClientUser {
  return {
    id: USER_ID,
    userName: 'ann@acme.com',
    email: 'ann@acme.com',
    firstName: 'Ann',
    lastName: 'Lee',
    fullName: 'Ann Lee',
    areaId: DEFAULT_AREA.id,
    areaName: 'Default',
    locked: false,
    draft: true,
    modifiedOn: '2025-01-31T10:00:00.000Z',
    language: 'en',
    phoneNumber: null,
    jobTitle: null,
    manager: null,
    teams: [],
    hasPendingOperationRequest: false,
    status: 'Applied',
    userType: 2,
    hasSignedIn: false,
    ...overrides,
  };
}

const PERMISSIONS: IdentityPermissions = {
  identityType: 'User',
  identityId: USER_ID,
  tenantId: TENANT.id,
  isInheritable: true,
  applications: [
    {
      applicationId: 'crm',
      applicationName: 'CRM',
      roles: [
        { roleId: 'r-own', roleName: 'Reader', held: 'Own', editable: true, origins: [{ via: 'own', groupName: null, tenantName: null }] },
        { roleId: 'r-inherited', roleName: 'Auditor', held: 'ByHierarchy', editable: false, origins: [{ via: 'hierarchy', groupName: null, tenantName: 'Acme Group' }] },
        { roleId: 'r-new', roleName: 'Editor', held: null, editable: true, origins: [] },
      ],
    },
  ],
  waitingRequest: null,
};

function stub(extra: Record<string, unknown> = {}) {
  const fetchMock = stubApi({
    'GET /api/v1/admin/clients/areas': { items: [CUSTOMERS, DEFAULT_AREA, PARTNERS, SYSTEM], count: 4 },
    [`POST ${USERS}`]: jsonResponse(clientUser(), 201),
    'GET /api/v1/admin/operationRequests/permissions': PERMISSIONS,
    'POST /api/v1/admin/operationRequests': jsonResponse({ id: 'req-1' }, 201),
    ...extra,
  });
  const sent = (method: string, path: string) =>
    fetchMock.mock.calls.map(([input]) => input as Request).filter((request) => request.method === method && new URL(request.url).pathname === path);
  return { sent };
}

function renderWizard(props: Partial<Parameters<typeof UserWizard>[0]> = {}) {
  const onClose = vi.fn();
  const onSaved = vi.fn();
  renderSignedIn(<UserWizard tenant={TENANT} canAutoApprove={false} onClose={onClose} onSaved={onSaved} {...props} />, { i18n });
  return { onClose, onSaved };
}

const type = (name: string, value: string) => fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });

async function pick(name: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name }));
  const choices = await screen.findAllByTitle(option);
  fireEvent.click(choices[choices.length - 1]!);
  await waitFor(() => expect(screen.getByRole('combobox', { name }).closest('.ant-select')).toHaveTextContent(option));
}

async function fillUser(email = 'ann@acme.com', area = 'Default') {
  type('User name', email);
  await pick('Area', area);
  type('First name', 'Ann');
  type('Last name', 'Lee');
  await pick('Preferred language', 'English');
  type('E-mail', email);
}

const button = (name: string) => screen.getByRole('button', { name });

describe('UserWizard, step 0 (User Information)', () => {
  it('is titled Create Operation Request, 800 px wide, and names each missing field with the spec’s message, sending nothing', async () => {
    const { sent } = stub();
    renderWizard();
    const dialog = await screen.findByRole('dialog', { name: 'Create Operation Request' });
    expect(dialog.closest('.ant-modal')).toHaveStyle({ width: '800px' });

    fireEvent.click(button('Next'));

    for (const message of [
      'Please input your username!',
      'Area required',
      'Please input your first name!',
      'Please input your last name!',
      'Please select your preferred language!',
      'Please input your email!',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(sent('POST', USERS)).toHaveLength(0);
  });

  it('refuses a malformed address and, for a new user, a free-mail one as "Invalid email address."', async () => {
    const { sent } = stub();
    renderWizard();
    await fillUser('ann@Mail.Yahoo.fr');
    fireEvent.click(button('Save and exit'));
    await waitFor(() => expect(screen.getAllByText('Invalid email address.')).toHaveLength(2));
    expect(sent('POST', USERS)).toHaveLength(0);

    type('E-mail', 'not-an-address');
    type('User name', 'ann@acme.com');
    fireEvent.click(button('Save and exit'));
    await waitFor(() => expect(screen.getAllByText('Invalid email address.')).toHaveLength(1));
    expect(sent('POST', USERS)).toHaveLength(0);
  });

  it('keeps an existing user’s free-mail address (the refusal is for new users), titled Edit Request', async () => {
    const user = clientUser({ email: 'ann@gmail.com', userName: 'ann@gmail.com', draft: false });
    const { sent } = stub({ [`PUT ${USERS}/${USER_ID}`]: user });
    const { onClose, onSaved } = renderWizard({ user });
    expect(await screen.findByRole('dialog', { name: 'Edit Request' })).toBeInTheDocument();

    fireEvent.click(button('Save and exit'));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSaved).toHaveBeenCalledWith('Changes have been saved');
    expect(await sent('PUT', `${USERS}/${USER_ID}`)[0]!.json()).toMatchObject({ email: 'ann@gmail.com', userName: 'ann@gmail.com' });
    expect(screen.queryByText('Invalid email address.')).not.toBeInTheDocument();
  });

  it('lets work position, manager and departments be edited only in the default area or Customers, and never offers a system area', async () => {
    stub();
    renderWizard();
    await screen.findByRole('dialog');
    const jobTitle = () => screen.getByRole('textbox', { name: 'Work position' });
    const manager = () => screen.getByRole('textbox', { name: 'Manager' });
    const teams = () => screen.getByRole('combobox', { name: 'Departments' });

    await pick('Area', 'Partners');
    await waitFor(() => expect(jobTitle()).toBeDisabled());
    expect(manager()).toBeDisabled();
    expect(teams()).toBeDisabled();

    await pick('Area', 'Customers');
    await waitFor(() => expect(jobTitle()).toBeEnabled());
    await pick('Area', 'Default');
    await waitFor(() => expect(manager()).toBeEnabled());
    expect(teams()).toBeEnabled();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Area' }));
    const offered = () => [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].map((option) => option.textContent);
    await waitFor(() => expect(offered()).toContain('Customers'));
    expect(offered()).not.toContain('System');
  });

  it('Save and exit creates the user for the tenant, outside the profile areas without their fields, and closes', async () => {
    const { sent } = stub();
    const { onClose, onSaved } = renderWizard();
    await fillUser('ann@acme.com', 'Partners');

    fireEvent.click(button('Save and exit'));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSaved).toHaveBeenCalledWith('Changes have been saved');
    expect(await sent('POST', USERS)[0]!.json()).toEqual({
      userName: 'ann@acme.com',
      areaId: PARTNERS.id,
      firstName: 'Ann',
      lastName: 'Lee',
      language: 'en',
      email: 'ann@acme.com',
      phoneNumber: null,
      jobTitle: null,
      manager: null,
      teams: null,
    });
    expect(sent('GET', '/api/v1/admin/operationRequests/permissions')).toHaveLength(0);
  });

  it('shows the server’s field messages at their fields', async () => {
    stub({
      [`POST ${USERS}`]: jsonResponse({ code: 'errors.validation', message: 'Invalid', errors: [{ field: 'userName', message: 'This user name is taken.' }] }, 400),
    });
    const { onClose } = renderWizard();
    await fillUser();
    fireEvent.click(button('Save and exit'));
    expect(await screen.findByText('This user name is taken.')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('requires a tenant: "Select Tenant..." and nothing sent', async () => {
    const { sent } = stub();
    renderWizard({ tenant: undefined });
    await fillUser();
    fireEvent.click(button('Next'));
    expect(await screen.findByText('Select Tenant...')).toBeInTheDocument();
    expect(sent('POST', USERS)).toHaveLength(0);
  });
});

async function toPermissions(props: Partial<Parameters<typeof UserWizard>[0]> = {}, extra: Record<string, unknown> = {}) {
  const api = stub(extra);
  const callbacks = renderWizard(props);
  await fillUser();
  fireEvent.click(button('Next'));
  await screen.findByRole('region', { name: 'Roles' });
  return { ...api, ...callbacks };
}

describe('UserWizard, step 1 (User’s Permissions)', () => {
  it('shows own roles removable and inherited ones locked, in a list at most 420 px high', async () => {
    const { sent } = await toPermissions();
    const list = screen.getByRole('region', { name: 'Roles' });
    expect(list).toHaveStyle({ maxHeight: '420px' });
    expect(within(list).getByTestId('role-r-own')).toHaveTextContent('CRM: Reader · own name');
    expect(within(list).getByRole('button', { name: 'Remove Reader (CRM)' })).toBeInTheDocument();
    const inherited = within(list).getByTestId('role-r-inherited');
    expect(inherited).toHaveTextContent('CRM: Auditor · inherited from Acme Group');
    expect(within(inherited).getByText('Inherited')).toBeInTheDocument();
    expect(within(inherited).queryByRole('button')).not.toBeInTheDocument();
    expect(within(list).queryByText('Editor')).not.toBeInTheDocument();
    const [request] = sent('GET', '/api/v1/admin/operationRequests/permissions');
    expect(Object.fromEntries(new URL(request!.url).searchParams)).toEqual({ identityId: USER_ID, tenantId: TENANT.id, isGroup: 'false' });
    expect(screen.queryByRole('button', { name: 'Save and exit' })).not.toBeInTheDocument();
  });

  it('disables Done while a role is being added, and Done sends the own roles only (never the inherited)', async () => {
    const { sent, onClose, onSaved } = await toPermissions();
    expect(button('Done')).toBeEnabled();

    fireEvent.click(button('Add role'));
    expect(button('Done')).toBeDisabled();
    await pick('Application', 'CRM');
    await pick('Role', 'Editor');
    expect(button('Done')).toBeDisabled();
    fireEvent.click(button('Add'));
    expect(button('Done')).toBeEnabled();
    fireEvent.click(button('Remove Reader (CRM)'));

    fireEvent.click(button('Done'));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSaved).toHaveBeenCalledWith('Changes have been saved');
    expect(await sent('POST', '/api/v1/admin/operationRequests')[0]!.json()).toEqual({
      tenantId: TENANT.id,
      identityType: 'User',
      identityId: USER_ID,
      isInheritable: true,
      roles: ['r-new'],
    });
  });

  it('shows no Approve switch to a user who may not auto-approve', async () => {
    await toPermissions({ canAutoApprove: false });
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });

  it('offers the Approve / Not Approve switch to one who may, and sends the choice', async () => {
    const { sent } = await toPermissions({ canAutoApprove: true });
    const toggle = screen.getByRole('switch', { name: 'Approve the request at once' });
    expect(toggle).toHaveTextContent('Not Approve');
    fireEvent.click(toggle);
    expect(toggle).toHaveTextContent('Approve');

    fireEvent.click(button('Done'));

    await waitFor(() => expect(sent('POST', '/api/v1/admin/operationRequests')).toHaveLength(1));
    expect(await sent('POST', '/api/v1/admin/operationRequests')[0]!.json()).toMatchObject({ roles: ['r-own'], autoApprove: true });
  });

  it('shows a refused request’s message and stays open', async () => {
    const { onClose } = await toPermissions({}, {
      'POST /api/v1/admin/operationRequests': jsonResponse({ code: 'errors.conflict', message: 'A request is already waiting for this user.' }, 409),
    });
    fireEvent.click(button('Done'));
    expect(await screen.findByText('A request is already waiting for this user.')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
