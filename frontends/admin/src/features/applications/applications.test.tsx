import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../test-utils';
import { bodiesTo, bodyRows, choose, dialogWith, list, PAGE_TEST_TIMEOUT, queriesTo, sentTo, type } from '../directory/test-helpers';
import ApplicationDetailPage from './ApplicationDetailPage';
import type { ApplicationDetail, ApplicationSummary, SavedApplication } from './applications-api';
import ApplicationsPage, { APPLICATIONS_LIST_KEY } from './ApplicationsPage';

const LIST = 'GET /api/v1/admin/applications';
const NAMESPACES = ['admin', 'directory', 'applications', 'applicationRoles'] as const;

/** An application of the list: running, confidential, not owned by the caller; `overrides` say the rest. */
function summary(overrides: Partial<ApplicationSummary> & Pick<ApplicationSummary, 'id' | 'displayName'>): ApplicationSummary {
  return {
    name: overrides.id,
    description: null,
    type: 'confidential',
    status: 'Running',
    enabled: true,
    prerelease: false,
    hideInUserList: false,
    privateUrl: `https://${overrides.id}.example.com/`,
    publicUrl: null,
    protocol: 'oidc',
    modifiedOn: '2026-03-04T10:00:00.000Z',
    userIsOwner: false,
    system: false,
    ...overrides,
  };
}

/** An application as its page reads it. */
function detail(overrides: Partial<ApplicationDetail> & Pick<ApplicationDetail, 'id' | 'displayName'>): ApplicationDetail {
  return {
    ...summary(overrides),
    redirectUris: [`https://${overrides.id}.example.com/callback`],
    postLogoutRedirectUris: [],
    icon: null,
    hasIconImage: false,
    hasSecret: true,
    requireDpop: false,
    deviceFlow: false,
    requirePar: false,
    requireSignedRequestObject: false,
    clientAuthentication: overrides.type === 'public' ? 'none' : 'client_secret_basic',
    jwks: null,
    jwksUri: null,
    fapi2: false,
    tokenExchangeAudiences: [],
    owners: [],
    ...overrides,
  };
}

/** What the form sends of the protocol settings when none was touched (a confidential application). */
const UNTOUCHED_PROTOCOL = {
  requirePar: false,
  requireSignedRequestObject: false,
  fapi2: false,
  clientAuthentication: 'client_secret_basic',
  jwks: null,
  jwksUri: null,
  tokenExchangeAudiences: [],
};

/** A public signing key (RFC 7517 appendix A.1), and the same with its private part. */
const EC_KEY = { kty: 'EC', crv: 'P-256', x: 'MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4', y: '4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM', use: 'sig', kid: '1' } as const;
const EC_PRIVATE_KEY = { ...EC_KEY, d: '870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE' };

const crm = summary({ id: 'crm', displayName: 'CRM', userIsOwner: true });
const wiki = summary({ id: 'wiki', displayName: 'Wiki', status: 'Maintenance', type: 'public' });
const identity = summary({ id: '1', name: 'identity', displayName: 'Identity Management', userIsOwner: true, system: true });
const billing = summary({ id: 'billing', displayName: 'Billing' });
const ada = { id: 'admin-1', userName: 'ada@example.com', email: 'ada@example.com', firstName: 'Ada', lastName: 'Admin' };

beforeEach(() => sessionStorage.clear());

describe('ApplicationsPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  function renderList(options: { roles?: string[]; api?: ApiRoutes } = {}) {
    return renderPage(<ApplicationsPage />, {
      route: '/applications',
      pattern: '/applications',
      roles: options.roles,
      namespaces: [...NAMESPACES],
      api: { [LIST]: list([crm, identity, wiki]), ...options.api },
    });
  }

  it('lists the applications by display name, each with its client id, type and status dropdown', async () => {
    const { fetchMock } = await renderList();

    expect(await screen.findByRole('link', { name: 'CRM' })).toHaveAttribute('href', '/applications/crm');
    expect(bodyRows()).toHaveLength(3);
    const row = screen.getByRole('link', { name: 'Wiki' }).closest('tr')!;
    expect(within(row).getByText('wiki')).toBeInTheDocument();
    expect(within(row).getByText('Public')).toBeInTheDocument();
    expect(within(row).getByRole('combobox', { name: 'Status of Wiki' })).toBeInTheDocument();
    expect(within(row).getByText('Maintenance')).toBeInTheDocument();
    expect(queriesTo(fetchMock, LIST)[0]).toEqual({ skip: '0', top: '10', orderBy: 'displayName asc' });
  });

  it('marks a disabled application in the list', async () => {
    await renderList({ api: { [LIST]: list([crm, { ...wiki, enabled: false }]) } });
    const row = (await screen.findByRole('link', { name: 'Wiki' })).closest('tr')!;
    expect(within(row).getByText('Disabled')).toBeInTheDocument();
    expect(within(screen.getByRole('link', { name: 'CRM' }).closest('tr')!).queryByText('Disabled')).toBeNull();
  });

  it('changes the status directly from the dropdown', async () => {
    const { fetchMock } = await renderList({
      api: { 'PUT /api/v1/admin/applications/crm/Stopped': { ...crm, status: 'Stopped' } },
    });
    await screen.findByRole('link', { name: 'CRM' });

    await choose('Status of CRM', 'Stopped');

    expect(await screen.findByText('CRM is now Stopped')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'PUT /api/v1/admin/applications/crm/Stopped')).toHaveLength(1);
    await waitFor(() => expect(sentTo(fetchMock, LIST).length).toBeGreaterThan(1));
  });

  it('says why a status change was refused', async () => {
    await renderList({
      api: {
        'PUT /api/v1/admin/applications/crm/Stopped': jsonResponse(
          { code: 'applications.console_not_stoppable', message: 'The administration console cannot be stopped: nobody could sign in to start it again' },
          409,
        ),
      },
    });
    await screen.findByRole('link', { name: 'CRM' });
    await choose('Status of CRM', 'Stopped');
    expect(await screen.findByText('The administration console cannot be stopped: nobody could sign in to start it again')).toBeInTheDocument();
  });

  it('filters by status and remembers the query', async () => {
    const { fetchMock } = await renderList();
    await screen.findByRole('link', { name: 'CRM' });

    await choose('Status', 'Maintenance');

    await waitFor(() => expect(queriesTo(fetchMock, LIST).at(-1)).toMatchObject({ status: 'Maintenance', skip: '0' }));
    expect(JSON.parse(sessionStorage.getItem(APPLICATIONS_LIST_KEY)!)).toMatchObject({ filters: { status: 'Maintenance' } });
  });

  it('offers deletion of the applications the caller owns only, never of the product’s own, and deletes after confirmation', async () => {
    const { fetchMock } = await renderList({ api: { 'DELETE /api/v1/admin/applications/crm': new Response(null, { status: 204 }) } });
    await screen.findByRole('link', { name: 'CRM' });

    expect(screen.queryByRole('button', { name: 'Delete the application Wiki' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete the application Identity Management' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Delete the application CRM' }));
    const confirm = await dialogWith('Delete the application CRM?');
    expect(confirm).toHaveTextContent('Its roles are deleted with it');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Application deleted successfully.')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'DELETE /api/v1/admin/applications/crm')).toHaveLength(1);
  });

  it('shows the server’s reason when a deletion is refused, and the spec’s text when there is none', async () => {
    let answer = jsonResponse({ code: 'applications.not_owner', message: 'The User is not the owner of the application and cannot delete it.' }, 403);
    await renderList({ api: { 'DELETE /api/v1/admin/applications/crm': () => answer } });
    await screen.findByRole('link', { name: 'CRM' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete the application CRM' }));
    fireEvent.click(within(await dialogWith('Delete the application CRM?')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The User is not the owner of the application and cannot delete it.')).toBeInTheDocument();

    answer = new Response('', { status: 502 });
    fireEvent.click(screen.getByRole('button', { name: 'Delete the application CRM' }));
    fireEvent.click(within(await dialogWith('Delete the application CRM?')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete the application. Please try again later.')).toBeInTheDocument();
  });

  it('offers neither creation, deletion nor status changes to the read-only TenantAdministrator', async () => {
    await renderList({ roles: ['TenantAdministrator'] });
    await screen.findByRole('link', { name: 'CRM' });

    expect(screen.queryByRole('button', { name: /New application/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete the application/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Status of CRM' })).not.toBeInTheDocument();
    expect(screen.getAllByText('Running').length).toBeGreaterThan(0);
  });

  describe('New application', () => {
    async function openDialog(api: ApiRoutes = {}) {
      const rendered = await renderList({ api });
      await screen.findByRole('link', { name: 'CRM' });
      fireEvent.click(screen.getByRole('button', { name: /New application/ }));
      return { ...rendered, dialog: await dialogWith('A confidential application gets a shared secret') };
    }

    it('asks for every required field with the spec’s messages, and checks the addresses', async () => {
      const { dialog, fetchMock } = await openDialog();

      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText('Please input the application name!')).toBeInTheDocument();
      expect(within(dialog).getByText('Please input the application display name!')).toBeInTheDocument();
      expect(within(dialog).getByText('Please input the application private URL!')).toBeInTheDocument();
      expect(within(dialog).getByText('Please input the application redirect URIs!')).toBeInTheDocument();

      type(within(dialog).getByLabelText('Name (client id)'), 'my app');
      type(within(dialog).getByLabelText('Private URL'), 'http://crm.example.com/');
      type(within(dialog).getByLabelText('Redirect URIs 1'), 'https://crm.example.com/cb#x');
      type(within(dialog).getByLabelText('Display name'), 'd'.repeat(201));
      expect(await within(dialog).findByText('Only letters, numbers, dots, hyphens and underscores, starting with a letter or a number')).toBeInTheDocument();
      expect(within(dialog).getByText('Enter an absolute address starting with https:// (http:// only on localhost)')).toBeInTheDocument();
      expect(within(dialog).getByText('Enter an absolute address starting with https:// (http:// only on localhost), without #')).toBeInTheDocument();
      expect(within(dialog).getByText('At most 200 characters')).toBeInTheDocument();
      // The list has an address now: its "required" message goes as the address is typed.
      await waitFor(() => expect(within(dialog).queryByText('Please input the application redirect URIs!')).not.toBeInTheDocument());
      expect(sentTo(fetchMock, 'POST /api/v1/admin/applications')).toHaveLength(0);
    });

    it('creates a confidential application, shows its secret once with a copy button, then opens its page', async () => {
      const writeText = vi.fn(async () => undefined);
      vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
      const created: SavedApplication = { ...detail({ id: 'erp', displayName: 'ERP', userIsOwner: true, owners: [ada] }), sharedSecret: 's3cr3t-value' };
      const { dialog, fetchMock } = await openDialog({ 'POST /api/v1/admin/applications': () => jsonResponse(created, 201) });

      type(within(dialog).getByLabelText('Name (client id)'), 'erp');
      type(within(dialog).getByLabelText('Display name'), 'ERP');
      type(within(dialog).getByLabelText('Private URL'), 'https://erp.example.com/');
      type(within(dialog).getByLabelText('Redirect URIs 1'), 'https://erp.example.com/callback');
      fireEvent.click(within(dialog).getAllByRole('button', { name: /Add an address/ })[0]!);
      type(within(dialog).getByLabelText('Redirect URIs 2'), 'http://localhost:3000/callback');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

      const secretDialog = await dialogWith('Shared secret of ERP');
      expect(within(secretDialog).getByLabelText('Shared secret')).toHaveValue('s3cr3t-value');
      expect(secretDialog).toHaveTextContent('once you close this dialog, you will not see it again');
      fireEvent.click(within(secretDialog).getByRole('button', { name: /Copy/ }));
      await waitFor(() => expect(writeText).toHaveBeenCalledWith('s3cr3t-value'));
      expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/applications')).toEqual([
        {
          id: null,
          name: 'erp',
          displayName: 'ERP',
          description: null,
          type: 'confidential',
          privateUrl: 'https://erp.example.com/',
          publicUrl: null,
          redirectUris: ['https://erp.example.com/callback', 'http://localhost:3000/callback'],
          postLogoutRedirectUris: [],
          prerelease: false,
          hideInUserList: false,
          enabled: true,
          requireDpop: false,
          deviceFlow: false,
          ...UNTOUCHED_PROTOCOL,
          icon: null,
        },
      ]);

      // The footer's Close (the title bar has one too).
      fireEvent.click(within(secretDialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
      expect(await screen.findByTestId('location')).toHaveTextContent('/applications/erp');
      vi.unstubAllGlobals();
    });

    it('creates a public application without a secret and opens its page', async () => {
      const created: SavedApplication = { ...detail({ id: 'spa', displayName: 'SPA', type: 'public', hasSecret: false }), sharedSecret: null };
      const { dialog, fetchMock } = await openDialog({ 'POST /api/v1/admin/applications': () => jsonResponse(created, 201) });

      type(within(dialog).getByLabelText('Name (client id)'), 'spa');
      type(within(dialog).getByLabelText('Display name'), 'SPA');
      type(within(dialog).getByLabelText('Private URL'), 'https://spa.example.com/');
      type(within(dialog).getByLabelText('Redirect URIs 1'), 'https://spa.example.com/cb');
      fireEvent.click(within(dialog).getByRole('radio', { name: 'Public' }));
      await waitFor(() => expect(within(dialog).queryByText(/A confidential application gets a shared secret/)).not.toBeInTheDocument());
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

      expect(await screen.findByTestId('location')).toHaveTextContent('/applications/spa');
      expect(((await bodiesTo(fetchMock, 'POST /api/v1/admin/applications'))[0] as { type: string }).type).toBe('public');
    });

    it('puts the server’s duplicate messages under the id and the name', async () => {
      const { dialog } = await openDialog({
        'POST /api/v1/admin/applications': () =>
          jsonResponse(
            {
              code: 'errors.application_id_and_name_in_use',
              message: 'Already exists an app with this id and name',
              errors: [
                { field: 'id', code: 'errors.application_id_in_use', message: 'Already exists an app with this id' },
                { field: 'name', code: 'errors.application_name_in_use', message: 'Already exists an app with this name' },
              ],
            },
            409,
          ),
      });
      type(within(dialog).getByLabelText('Name (client id)'), 'crm');
      type(within(dialog).getByLabelText('Id'), 'crm');
      type(within(dialog).getByLabelText('Display name'), 'CRM');
      type(within(dialog).getByLabelText('Private URL'), 'https://crm.example.com/');
      type(within(dialog).getByLabelText('Redirect URIs 1'), 'https://crm.example.com/cb');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

      expect(await within(dialog).findByText('Already exists an app with this id')).toBeInTheDocument();
      expect(within(dialog).getByText('Already exists an app with this name')).toBeInTheDocument();
    });
  });
});

describe('ApplicationDetailPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  const bob = { id: 'u-bob', userName: 'bob@example.com', email: 'bob@example.com', firstName: 'Bob', lastName: 'Builder' };
  const crmDetail = detail({
    id: 'crm',
    displayName: 'CRM',
    userIsOwner: true,
    owners: [ada],
    redirectUris: ['https://crm.example.com/callback', 'https://crm.example.com/other'],
  });

  function renderDetail(subject: ApplicationDetail = crmDetail, options: { route?: string; roles?: string[]; api?: ApiRoutes } = {}) {
    return renderPage(<ApplicationDetailPage />, {
      route: options.route ?? `/applications/${subject.id}`,
      pattern: '/applications/:applicationId/:tab?',
      roles: options.roles,
      namespaces: [...NAMESPACES],
      api: {
        [`GET /api/v1/admin/applications/${subject.id}`]: subject,
        [`GET /api/v1/admin/app/${subject.id}/roles`]: list([]),
        [`GET /api/v1/admin/applications/${subject.id}/users`]: list([]),
        'GET /api/v1/admin/users': list([{ ...bob, areaId: 'a1', areaName: 'North', validateScopes: false, locked: false, draft: false, modifiedOn: '2026-03-04T10:00:00Z', language: 'en' }]),
        [LIST]: list([crm, identity, wiki, billing]),
        ...options.api,
      },
    });
  }

  it('shows the General properties, the owners and the Roles tab', async () => {
    await renderDetail();

    expect(await screen.findByRole('heading', { level: 1, name: 'CRM' })).toBeInTheDocument();
    expect(screen.getByLabelText('Display name')).toHaveValue('CRM');
    expect(screen.getByLabelText('Private URL')).toHaveValue('https://crm.example.com/');
    expect(screen.getByLabelText('Redirect URIs 1')).toHaveValue('https://crm.example.com/callback');
    expect(screen.getByLabelText('Redirect URIs 2')).toHaveValue('https://crm.example.com/other');
    expect(screen.getByRole('link', { name: 'ada@example.com (Ada Admin)' })).toHaveAttribute('href', '/applications/crm/users/admin-1');
    expect(screen.getByRole('tab', { name: 'Roles', selected: true })).toBeInTheDocument();
    expect(screen.getByText('Has a shared secret')).toBeInTheDocument();
  });

  it('opens the Users tab at /applications/{id}/users, and a tab changes the address', async () => {
    await renderDetail(crmDetail, { route: '/applications/crm/users' });

    expect(await screen.findByRole('tab', { name: 'Users', selected: true })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Roles' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Roles', selected: true })).toBeInTheDocument());
  });

  it('answers "Application not found" for an unknown application', async () => {
    await renderDetail(crmDetail, {
      route: '/applications/gone',
      api: { 'GET /api/v1/admin/applications/gone': jsonResponse({ code: 'applications.not_found', message: 'Application not found' }, 404) },
    });
    expect(await screen.findByText('Application not found')).toBeInTheDocument();
  });

  it('saves the General properties, redirect URIs edited as a list', async () => {
    const { fetchMock } = await renderDetail(crmDetail, {
      api: { 'PUT /api/v1/admin/applications/crm': () => jsonResponse({ ...crmDetail, sharedSecret: null }) },
    });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });

    type(screen.getByLabelText('Display name'), 'CRM Pro');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Redirect URIs 1' }));
    fireEvent.click(screen.getAllByRole('button', { name: /Add an address/ })[1]!);
    type(screen.getByLabelText('Post-logout redirect URIs 1'), 'https://crm.example.com/bye');
    fireEvent.click(screen.getByRole('checkbox', { name: /Prerelease/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'PUT /api/v1/admin/applications/crm')).toEqual([
      {
        displayName: 'CRM Pro',
        description: null,
        type: 'confidential',
        privateUrl: 'https://crm.example.com/',
        publicUrl: null,
        redirectUris: ['https://crm.example.com/other'],
        postLogoutRedirectUris: ['https://crm.example.com/bye'],
        prerelease: true,
        hideInUserList: false,
        enabled: true,
        requireDpop: false,
        deviceFlow: false,
        ...UNTOUCHED_PROTOCOL,
        icon: null,
      },
    ]);
  });

  it('requires DPoP of an application from its form, the switch showing what is stored', async () => {
    const { fetchMock } = await renderDetail(crmDetail, {
      api: { 'PUT /api/v1/admin/applications/crm': () => jsonResponse({ ...crmDetail, requireDpop: true, sharedSecret: null }) },
    });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });
    const requireDpop = screen.getByRole('switch', { name: 'Require DPoP (sender-constrained tokens)' });
    expect(requireDpop).not.toBeChecked();
    fireEvent.click(requireDpop);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect((await bodiesTo(fetchMock, 'PUT /api/v1/admin/applications/crm'))[0]).toMatchObject({ requireDpop: true });
  });

  it('allows sign-in on devices from its form', async () => {
    const { fetchMock } = await renderDetail(crmDetail, {
      api: { 'PUT /api/v1/admin/applications/crm': () => jsonResponse({ ...crmDetail, deviceFlow: true, sharedSecret: null }) },
    });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });
    const devices = screen.getByRole('switch', { name: 'Allow sign-in on devices (device code)' });
    expect(devices).not.toBeChecked();
    fireEvent.click(devices);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect((await bodiesTo(fetchMock, 'PUT /api/v1/admin/applications/crm'))[0]).toMatchObject({ deviceFlow: true });
  });

  it('shows the device switch of one of the product’s own applications locked', async () => {
    await renderDetail(detail({ id: '1', name: 'identity', displayName: 'Identity Management', userIsOwner: true, system: true }));
    await screen.findByRole('heading', { level: 1, name: 'Identity Management' });
    expect(screen.getByRole('switch', { name: 'Allow sign-in on devices (device code)' })).toBeDisabled();
    expect(screen.getByText('One of the product’s own applications: this is set by the product.')).toBeInTheDocument();
  });

  describe('protocol and security', () => {
    const PAR = 'Require pushed authorization requests (PAR)';
    const JAR = 'Require signed request objects (JAR)';
    const DPOP = 'Require DPoP (sender-constrained tokens)';
    const FAPI = 'FAPI 2.0 Security Profile';
    const PRIVATE_KEY_JWT = 'Signed JWT with the application’s key (private_key_jwt)';
    const KEYS_REQUIRED = 'private_key_jwt and signed request objects need the application’s public keys: paste its JWKS or give the address of its JWKS';
    const EXCHANGE = 'May exchange users’ tokens for';
    const PUT = 'PUT /api/v1/admin/applications/crm';
    const saved = () => jsonResponse({ ...crmDetail, sharedSecret: null });
    const keyed = detail({ ...crmDetail, clientAuthentication: 'private_key_jwt', jwks: { keys: [EC_KEY] } });

    /** Saves, and checks the form refused to send. */
    async function saveIsRefused(fetchMock: Awaited<ReturnType<typeof renderDetail>>['fetchMock']) {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(screen.queryByText('Changes have been saved')).not.toBeInTheDocument();
      expect(sentTo(fetchMock, PUT)).toHaveLength(0);
    }

    it('requires pushed and signed authorization requests, with the keys pasted as a JWKS', async () => {
      const { fetchMock } = await renderDetail(crmDetail, { api: { [PUT]: saved } });
      await screen.findByRole('heading', { level: 1, name: 'CRM' });
      expect(screen.queryByLabelText('JWKS')).not.toBeInTheDocument();
      fireEvent.click(screen.getByRole('switch', { name: PAR }));
      fireEvent.click(screen.getByRole('switch', { name: JAR }));
      type(await screen.findByLabelText('JWKS'), JSON.stringify({ keys: [EC_KEY] }));
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
      expect((await bodiesTo(fetchMock, PUT))[0]).toMatchObject({
        requirePar: true,
        requireSignedRequestObject: true,
        requireDpop: false,
        fapi2: false,
        clientAuthentication: 'client_secret_basic',
        jwks: { keys: [EC_KEY] },
        jwksUri: null,
      });
    });

    it('shows PAR and DPoP on and locked while FAPI 2.0 is on, and sends them on', async () => {
      const { fetchMock } = await renderDetail(keyed, { api: { [PUT]: saved } });
      await screen.findByRole('heading', { level: 1, name: 'CRM' });
      expect(screen.getByLabelText('JWKS')).toHaveValue(JSON.stringify({ keys: [EC_KEY] }, null, 2));
      const par = screen.getByRole('switch', { name: PAR });
      const dpop = screen.getByRole('switch', { name: DPOP });
      expect(par).not.toBeChecked();
      expect(par).toBeEnabled();

      fireEvent.click(screen.getByRole('switch', { name: FAPI }));
      await waitFor(() => expect(par).toBeChecked());
      expect(par).toBeDisabled();
      expect(dpop).toBeChecked();
      expect(dpop).toBeDisabled();
      expect(screen.getAllByText('Required by the FAPI 2.0 profile.')).toHaveLength(2);
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
      expect((await bodiesTo(fetchMock, PUT))[0]).toMatchObject({
        fapi2: true,
        requirePar: true,
        requireDpop: true,
        clientAuthentication: 'private_key_jwt',
        jwks: { keys: [EC_KEY] },
      });
    });

    it('says before sending that FAPI 2.0 needs private_key_jwt rather than the shared secret', async () => {
      const { fetchMock } = await renderDetail(crmDetail, { api: { [PUT]: saved } });
      await screen.findByRole('heading', { level: 1, name: 'CRM' });
      fireEvent.click(screen.getByRole('switch', { name: FAPI }));

      const message = 'The FAPI 2.0 profile needs a confidential application that authenticates with private_key_jwt';
      expect(await screen.findByText(message)).toBeInTheDocument();
      await saveIsRefused(fetchMock);

      fireEvent.click(screen.getByRole('radio', { name: PRIVATE_KEY_JWT }));
      await waitFor(() => expect(screen.queryByText(message)).not.toBeInTheDocument());
    });

    it('refuses a pasted private key before sending, naming its private part', async () => {
      const { fetchMock } = await renderDetail(crmDetail, { api: { [PUT]: saved } });
      await screen.findByRole('heading', { level: 1, name: 'CRM' });
      fireEvent.click(screen.getByRole('radio', { name: PRIVATE_KEY_JWT }));
      type(await screen.findByLabelText('JWKS'), JSON.stringify({ keys: [EC_KEY, EC_PRIVATE_KEY] }));

      expect(await screen.findByText('Key 2 holds a private part (d): paste only the public keys')).toBeInTheDocument();
      await saveIsRefused(fetchMock);

      type(screen.getByLabelText('JWKS'), JSON.stringify({ keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }));
      expect(await screen.findByText('Key 1 holds a private part (k): paste only the public keys')).toBeInTheDocument();
    });

    it('refuses a JWKS that is not JSON, or not a key set', async () => {
      const { fetchMock } = await renderDetail(crmDetail, { api: { [PUT]: saved } });
      await screen.findByRole('heading', { level: 1, name: 'CRM' });
      fireEvent.click(screen.getByRole('switch', { name: JAR }));
      const jwks = await screen.findByLabelText('JWKS');

      type(jwks, '{ keys: [');
      expect(await screen.findByText('This is not valid JSON: check the pasted text')).toBeInTheDocument();
      await saveIsRefused(fetchMock);
      type(jwks, JSON.stringify(EC_KEY));
      expect(await screen.findByText('Paste a JWKS: a JSON object with a non-empty "keys" array')).toBeInTheDocument();
      type(jwks, JSON.stringify({ keys: [] }));
      expect(await screen.findByText('Paste a JWKS: a JSON object with a non-empty "keys" array')).toBeInTheDocument();
      await saveIsRefused(fetchMock);
    });

    it('asks for the keys of private_key_jwt before sending, and takes the address of a JWKS', async () => {
      const { fetchMock } = await renderDetail(crmDetail, { api: { [PUT]: saved } });
      await screen.findByRole('heading', { level: 1, name: 'CRM' });
      fireEvent.click(screen.getByRole('radio', { name: PRIVATE_KEY_JWT }));
      await screen.findByLabelText('JWKS');
      await saveIsRefused(fetchMock);
      expect(await screen.findByText(KEYS_REQUIRED)).toBeInTheDocument();

      fireEvent.click(screen.getByRole('radio', { name: 'Published at an address' }));
      type(await screen.findByLabelText('Address of the JWKS'), 'http://keys.example.com/jwks.json');
      expect(await screen.findByText('Enter the address of the JWKS, starting with https:// (http:// only on localhost)')).toBeInTheDocument();
      type(screen.getByLabelText('Address of the JWKS'), 'https://crm.example.com/jwks.json');
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
      expect((await bodiesTo(fetchMock, PUT))[0]).toMatchObject({
        clientAuthentication: 'private_key_jwt',
        jwks: null,
        jwksUri: 'https://crm.example.com/jwks.json',
      });
    });

    it('offers the other applications, not the product’s own, for token exchange, and sends their ids', async () => {
      const { fetchMock } = await renderDetail(crmDetail, { api: { [PUT]: saved } });
      await screen.findByRole('heading', { level: 1, name: 'CRM' });

      fireEvent.mouseDown(screen.getByRole('combobox', { name: EXCHANGE }));
      const offered = await waitFor(() => {
        const options = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].map((option) => option.textContent);
        expect(options.length).toBeGreaterThan(0);
        return options;
      });
      expect(offered.sort()).toEqual(['Billing (billing)', 'Wiki (wiki)']);
      await choose(EXCHANGE, 'Wiki (wiki)');
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
      expect((await bodiesTo(fetchMock, PUT))[0]).toMatchObject({ tokenExchangeAudiences: ['wiki'] });
      expect(queriesTo(fetchMock, LIST)[0]).toMatchObject({ top: '1000', orderBy: 'displayName asc' });
    });

    it('shows neither the client authentication nor the exchange picker of a public application', async () => {
      const spa = detail({ id: 'spa', displayName: 'SPA', type: 'public', hasSecret: false });
      const { fetchMock } = await renderDetail(spa, { api: { 'PUT /api/v1/admin/applications/spa': () => jsonResponse({ ...spa, sharedSecret: null }) } });
      await screen.findByRole('heading', { level: 1, name: 'SPA' });

      expect(screen.getByRole('switch', { name: PAR })).toBeInTheDocument();
      expect(screen.queryByText('Client authentication')).not.toBeInTheDocument();
      expect(screen.queryByRole('radio', { name: PRIVATE_KEY_JWT })).not.toBeInTheDocument();
      expect(screen.queryByRole('combobox', { name: EXCHANGE })).not.toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
      expect((await bodiesTo(fetchMock, 'PUT /api/v1/admin/applications/spa'))[0]).toMatchObject({
        type: 'public',
        clientAuthentication: 'client_secret_basic',
        tokenExchangeAudiences: [],
      });
    });

    it('puts the server’s errors on a key and on an audience under the JWKS and the picker', async () => {
      await renderDetail(detail({ ...keyed, tokenExchangeAudiences: ['wiki'] }), {
        api: {
          [PUT]: () =>
            jsonResponse(
              {
                code: 'errors.validation',
                message: 'The request is not valid',
                errors: [
                  { field: 'jwks.keys.0', code: 'applications.invalid_jwks', message: 'Key 1 cannot be used: only public signing keys are accepted (RSA of 2048 bits or more, EC P-256, P-384 or P-521, Ed25519)' },
                  { field: 'tokenExchangeAudiences.0', code: 'applications.exchange_audience_unknown', message: 'There is no application wiki' },
                ],
              },
              400,
            ),
        },
      });
      await screen.findByRole('heading', { level: 1, name: 'CRM' });
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));

      const jwks = screen.getByLabelText('JWKS').closest('.ant-form-item') as HTMLElement;
      expect(await within(jwks).findByText('Key 1 cannot be used: only public signing keys are accepted (RSA of 2048 bits or more, EC P-256, P-384 or P-521, Ed25519)')).toBeInTheDocument();
      const picker = screen.getByRole('combobox', { name: EXCHANGE }).closest('.ant-form-item') as HTMLElement;
      expect(within(picker).getByText('There is no application wiki')).toBeInTheDocument();
    });
  });

  it('disables an application from its form, and keeps the product’s own enabled', async () => {
    const { fetchMock } = await renderDetail(crmDetail, {
      api: { 'PUT /api/v1/admin/applications/crm': () => jsonResponse({ ...crmDetail, enabled: false, sharedSecret: null }) },
    });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });
    const enabled = screen.getByRole('checkbox', { name: 'Enabled' });
    expect(enabled).toBeChecked();
    fireEvent.click(enabled);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect((await bodiesTo(fetchMock, 'PUT /api/v1/admin/applications/crm'))[0]).toMatchObject({ enabled: false });
  });

  it('shows the Enabled box of one of the product’s own applications ticked and locked', async () => {
    await renderDetail(detail({ id: '1', name: 'identity', displayName: 'Identity Management', userIsOwner: true, system: true }));
    await screen.findByRole('heading', { level: 1, name: 'Identity Management' });
    expect(screen.getByRole('checkbox', { name: 'Enabled' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Enabled' })).toBeDisabled();
    expect(screen.getByText('One of the product’s own applications: it stays enabled.')).toBeInTheDocument();
  });

  it('puts a server error on one redirect URI under its row', async () => {
    await renderDetail(crmDetail, {
      api: {
        'PUT /api/v1/admin/applications/crm': () =>
          jsonResponse(
            {
              code: 'errors.validation',
              message: 'The request is not valid',
              errors: [{ field: 'redirectUris.1', code: 'applications.duplicate_uri', message: 'This address is already in the list' }],
            },
            400,
          ),
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const second = screen.getByLabelText('Redirect URIs 2').closest('.ant-form-item')!;
    expect(await within(second as HTMLElement).findByText('This address is already in the list')).toBeInTheDocument();
  });

  it('shows the secret a switch to confidential generated, once', async () => {
    const spa = detail({ id: 'spa', displayName: 'SPA', type: 'public', hasSecret: false });
    await renderDetail(spa, {
      api: { 'PUT /api/v1/admin/applications/spa': () => jsonResponse({ ...spa, type: 'confidential', hasSecret: true, sharedSecret: 'fresh-secret' }) },
    });
    await screen.findByRole('heading', { level: 1, name: 'SPA' });

    fireEvent.click(screen.getByRole('radio', { name: 'Confidential' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await dialogWith('Shared secret of SPA');
    expect(within(dialog).getByLabelText('Shared secret')).toHaveValue('fresh-secret');
  });

  it('replaces the secret after confirmation and shows the new one', async () => {
    const { fetchMock } = await renderDetail(crmDetail, { api: { 'POST /api/v1/admin/applications/crm/secret': { sharedSecret: 'brand-new' } } });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });

    fireEvent.click(screen.getByRole('button', { name: /New secret/ }));
    const confirm = await dialogWith('Replace the shared secret of CRM?');
    expect(confirm).toHaveTextContent('The current secret stops working at once');
    fireEvent.click(within(confirm).getByRole('button', { name: 'New secret' }));

    const dialog = await dialogWith('Shared secret of CRM');
    expect(within(dialog).getByLabelText('Shared secret')).toHaveValue('brand-new');
    expect(sentTo(fetchMock, 'POST /api/v1/admin/applications/crm/secret')).toHaveLength(1);
  });

  it('sends an uploaded icon with the form, as a data URL', async () => {
    const { fetchMock, container } = await renderDetail(crmDetail, {
      api: { 'PUT /api/v1/admin/applications/crm': () => jsonResponse({ ...crmDetail, hasIconImage: true, sharedSecret: null }) },
    });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });

    const png = new File([Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10])], 'icon.png', { type: 'image/png' });
    fireEvent.change(container.querySelector('input[type="file"]')!, { target: { files: [png] } });
    // By its text alternative: a role query walks the whole antd form at each retry, slow on a busy machine.
    expect(await screen.findByAltText('Icon of CRM')).toHaveAttribute('src', expect.stringMatching(/^data:image\/png;base64,/));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(async () => expect(await bodiesTo(fetchMock, 'PUT /api/v1/admin/applications/crm')).toHaveLength(1));
    const [body] = (await bodiesTo(fetchMock, 'PUT /api/v1/admin/applications/crm')) as Array<{ iconImage: string }>;
    expect(body!.iconImage).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('refuses an SVG or a too large image as an icon', async () => {
    const { container } = await renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'CRM' });

    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'icon.svg', { type: 'image/svg+xml' });
    fireEvent.change(container.querySelector('input[type="file"]')!, { target: { files: [svg] } });
    expect(await screen.findByText('Choose a PNG, JPEG, GIF, WebP or ICO image of at most 256 KB')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Icon of CRM' })).not.toBeInTheDocument();
  });

  it('deletes an application the caller owns after confirmation, back to the list', async () => {
    const { fetchMock } = await renderDetail(crmDetail, { api: { 'DELETE /api/v1/admin/applications/crm': new Response(null, { status: 204 }) } });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });

    fireEvent.click(screen.getByRole('button', { name: /Delete/ }));
    fireEvent.click(within(await dialogWith('Delete the application CRM?')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByTestId('location')).toHaveTextContent('/applications');
    expect(sentTo(fetchMock, 'DELETE /api/v1/admin/applications/crm')).toHaveLength(1);
  });

  it('offers no deletion to a non-owner nor for the product’s own applications', async () => {
    await renderDetail({ ...crmDetail, userIsOwner: false });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });

  it('says the product’s own applications cannot be deleted', async () => {
    await renderDetail(detail({ id: '1', name: 'identity', displayName: 'Identity Management', userIsOwner: true, system: true }));
    await screen.findByRole('heading', { level: 1, name: 'Identity Management' });
    expect(screen.getByText('Part of the product: it cannot be deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });

  it('adds and removes owners', async () => {
    const { fetchMock } = await renderDetail(crmDetail, {
      api: {
        'POST /api/v1/admin/applications/crm/owners': [ada, bob],
        'DELETE /api/v1/admin/applications/crm/owners/admin-1': [],
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });

    fireEvent.click(screen.getByRole('button', { name: /Add an owner/ }));
    expect(await screen.findByText('User required')).toBeInTheDocument();
    await choose('User', 'bob@example.com (Bob Builder)');
    fireEvent.click(screen.getByRole('button', { name: /Add an owner/ }));
    expect(await screen.findByText('bob@example.com (Bob Builder) is now an owner')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/applications/crm/owners')).toEqual([{ userId: 'u-bob' }]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove ada@example.com (Ada Admin) from the owners' }));
    fireEvent.click(within(await dialogWith('Remove ada@example.com (Ada Admin) from the owners?')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('ada@example.com (Ada Admin) is no longer an owner')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'DELETE /api/v1/admin/applications/crm/owners/admin-1')).toHaveLength(1);
  });

  it('is read-only for the TenantAdministrator', async () => {
    await renderDetail(crmDetail, { roles: ['TenantAdministrator'] });
    await screen.findByRole('heading', { level: 1, name: 'CRM' });

    expect(screen.getByLabelText('Display name')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /New secret/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add an owner/ })).not.toBeInTheDocument();
  });
});
