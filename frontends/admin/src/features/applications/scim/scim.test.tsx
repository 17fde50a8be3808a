import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../../test-utils';
import { AREAS, bodiesTo, bodyRows, choose, dialogWith, list, localDateTime, PAGE_TEST_TIMEOUT, sentTo, type } from '../../directory/test-helpers';
import ApplicationDetailPage from '../ApplicationDetailPage';
import type { ApplicationDetail } from '../applications-api';
import { outOfRange } from './NewScimTokenModal';
import type { IssuedScimToken, ScimToken } from './scim-api';

const NAMESPACES = ['admin', 'directory', 'applications', 'applicationRoles', 'scim'] as const;
const TOKENS = 'GET /api/v1/admin/applications/crm/scimTokens';
const ISSUE = 'POST /api/v1/admin/applications/crm/scimTokens';

/** An application as its page reads it: running, confidential, not one of the product's own. */
function detail(overrides: Partial<ApplicationDetail> & Pick<ApplicationDetail, 'id' | 'displayName'>): ApplicationDetail {
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
    userIsOwner: true,
    system: false,
    redirectUris: [`https://${overrides.id}.example.com/callback`],
    postLogoutRedirectUris: [],
    icon: null,
    hasIconImage: false,
    hasSecret: true,
    requireDpop: false,
    deviceFlow: false,
    requirePar: false,
    requireSignedRequestObject: false,
    clientAuthentication: 'client_secret_basic',
    jwks: null,
    jwksUri: null,
    fapi2: false,
    tokenExchangeAudiences: [],
    owners: [],
    ...overrides,
  };
}

const crm = detail({ id: 'crm', displayName: 'CRM' });
const identity = detail({ id: '1', name: 'identity', displayName: 'Identity Management', system: true });

const entra: ScimToken = {
  id: '7d4c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09',
  name: 'Entra ID',
  areaId: 'a1',
  areaName: 'North',
  hint: 'gscim_…Xy9z',
  createdBy: 'admin-1',
  createdByName: 'Ada Admin',
  createdAt: '2026-03-04T10:00:00.000Z',
  expiresAt: '2099-03-04T10:00:00.000Z',
  lastUsedAt: '2026-03-05T08:15:00.000Z',
};
const hr: ScimToken = {
  id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  name: 'HR system',
  areaId: 'a2',
  areaName: 'South',
  hint: 'gscim_…Ab12',
  createdBy: 'gone-user',
  createdByName: null,
  createdAt: '2024-01-01T09:00:00.000Z',
  expiresAt: '2025-01-01T09:00:00.000Z',
  lastUsedAt: null,
};

const VALUE = 'gscim_q8W3nC0ZbVxk2mY7tRfA1sLh9JdEoPuGiK4yT6wXeN5';
const ISSUED: IssuedScimToken = {
  ...entra,
  id: '3c3c3c3c-3c3c-4c3c-8c3c-3c3c3c3c3c3c',
  name: 'Workday',
  areaId: 'a2',
  areaName: 'South',
  hint: 'gscim_…XeN5',
  lastUsedAt: null,
  token: VALUE,
  scimUrl: 'https://id.example.com/scim/v2',
};

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;
// A row's buttons are found by their label: in jsdom, the role query's style checks of a button
// this deep in the page take tens of seconds.

/** Types a date into a picker (DD-MM-YYYY) and confirms it. */
function pickDate(input: HTMLElement, value: string) {
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  type(input, value);
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
}

// The tabs are loaded with the page: fetched ahead, so no wait runs out on them.
beforeAll(async () => {
  await Promise.all([import('../roles/ApplicationRolesTab'), import('./ApplicationScimTab')]);
});
beforeEach(() => sessionStorage.clear());

describe('the SCIM provisioning tab', { timeout: PAGE_TEST_TIMEOUT }, () => {
  function renderTab(options: { subject?: ApplicationDetail; route?: string; roles?: string[]; api?: ApiRoutes } = {}) {
    const subject = options.subject ?? crm;
    return renderPage(<ApplicationDetailPage />, {
      route: options.route ?? `/applications/${subject.id}/scim`,
      pattern: '/applications/:applicationId/:tab?',
      roles: options.roles,
      namespaces: [...NAMESPACES],
      api: {
        [`GET /api/v1/admin/applications/${subject.id}`]: subject,
        [`GET /api/v1/admin/app/${subject.id}/roles`]: list([]),
        [`GET /api/v1/admin/applications/${subject.id}/scimTokens`]: list([entra, hr]),
        'GET /api/v1/admin/applications': list([]),
        'GET /api/v1/admin/areas': AREAS,
        ...options.api,
      },
    });
  }

  it('explains SCIM provisioning, shows the SCIM base URL and lists the tokens, never their values', async () => {
    const { fetchMock } = await renderTab();

    expect(await screen.findByRole('tab', { name: 'SCIM provisioning', selected: true })).toBeInTheDocument();
    expect(await screen.findByText('Entra ID')).toBeInTheDocument();
    expect(screen.getByText(/Microsoft Entra ID or an HR system creates, updates, deactivates and deletes the users and groups of one area/)).toBeInTheDocument();
    expect(screen.getByText(/Users and groups holding administration roles are out of its reach/)).toBeInTheDocument();
    expect(screen.getByLabelText('SCIM base URL')).toHaveValue(`${window.location.origin}/scim/v2`);

    const tokens = within(screen.getByRole('region', { name: 'SCIM tokens' }));
    expect(bodyRows(tokens.getByRole('table'))).toHaveLength(2);
    const first = within(rowOf('Entra ID'));
    expect(first.getByText('North')).toBeInTheDocument();
    expect(first.getByText('gscim_…Xy9z')).toBeInTheDocument();
    expect(first.getByText('Ada Admin')).toBeInTheDocument();
    expect(first.getByText(localDateTime(entra.createdAt))).toBeInTheDocument();
    expect(first.getByText(localDateTime(entra.lastUsedAt!))).toBeInTheDocument();
    expect(first.queryByText('Expired')).not.toBeInTheDocument();
    const second = within(rowOf('HR system'));
    expect(second.getByText('South')).toBeInTheDocument();
    expect(second.getByText('Expired')).toBeInTheDocument();
    expect(second.getByText('Never')).toBeInTheDocument();
    expect(rowOf('HR system')).toHaveTextContent(localDateTime(hr.expiresAt!));
    expect(sentTo(fetchMock, TOKENS)).toHaveLength(1);
  });

  it('copies the SCIM base URL', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await renderTab();
    await screen.findByText('Entra ID');

    fireEvent.click(screen.getByRole('button', { name: 'Copy the SCIM base URL' }));
    expect(await screen.findByText('SCIM base URL copied to clipboard!')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/scim/v2`);
  });

  it('issues a token for an area: posts { name, areaId }, then shows its value once with the SCIM URL', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { fetchMock, store } = await renderTab({ api: { [ISSUE]: () => jsonResponse(ISSUED, 201) } });
    await screen.findByText('Entra ID');

    fireEvent.click(screen.getByRole('button', { name: /New token/ }));
    const dialog = await dialogWith('New SCIM token');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Enter a name for the token')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose an area')).toBeInTheDocument();
    expect(sentTo(fetchMock, ISSUE)).toHaveLength(0);

    type(within(dialog).getByLabelText('Name'), ' Workday ');
    await choose('Area', 'South', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    const shown = await dialogWith('SCIM token Workday');
    expect(await bodiesTo(fetchMock, ISSUE)).toEqual([{ name: 'Workday', areaId: 'a2' }]);
    expect(shown).toHaveTextContent('once you close this dialog, you will not see it again');
    expect(within(shown).getByLabelText('SCIM token')).toHaveValue(VALUE);
    expect(within(shown).getByLabelText('SCIM base URL')).toHaveValue('https://id.example.com/scim/v2');
    expect(shown).toHaveTextContent('South');
    expect(shown).toHaveTextContent(localDateTime(ISSUED.expiresAt!));

    const tokenField = within(within(shown).getByLabelText('SCIM token').closest<HTMLElement>('.scim-copy')!);
    fireEvent.click(tokenField.getByRole('button', { name: /Copy/ }));
    expect(await screen.findByText('Token copied to clipboard!')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(VALUE);

    // The footer's Close (the title bar has one too).
    fireEvent.click(within(shown).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByDisplayValue(VALUE)).not.toBeInTheDocument());
    expect(document.body.innerHTML).not.toContain(VALUE);
    expect(JSON.stringify(store.getState())).not.toContain(VALUE);
    // The list is asked for again, with the new token.
    await waitFor(() => expect(sentTo(fetchMock, TOKENS)).toHaveLength(2));
  });

  it('sends the expiry picked, from the start of that day', async () => {
    const { fetchMock } = await renderTab({ api: { [ISSUE]: () => jsonResponse(ISSUED, 201) } });
    await screen.findByText('Entra ID');
    fireEvent.click(screen.getByRole('button', { name: /New token/ }));
    const dialog = await dialogWith('New SCIM token');
    const day = dayjs().add(90, 'day');

    type(within(dialog).getByLabelText('Name'), 'Workday');
    await choose('Area', 'South', dialog);
    pickDate(within(dialog).getByLabelText('Expiry'), day.format('DD-MM-YYYY'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    await dialogWith('SCIM token Workday');
    expect(await bodiesTo(fetchMock, ISSUE)).toEqual([{ name: 'Workday', areaId: 'a2', expiresAt: day.startOf('day').toISOString() }]);
  });

  it('puts the server’s refusal of the area under its field', async () => {
    const refusal = 'There is no such area';
    await renderTab({
      api: { [ISSUE]: () => jsonResponse({ code: 'scimTokens.area_not_found', message: refusal, errors: [{ field: 'areaId', code: 'scimTokens.area_not_found', message: refusal }] }, 400) },
    });
    await screen.findByText('Entra ID');
    fireEvent.click(screen.getByRole('button', { name: /New token/ }));
    const dialog = await dialogWith('New SCIM token');

    type(within(dialog).getByLabelText('Name'), 'Workday');
    await choose('Area', 'South', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    const areaItem = within(dialog).getByRole('combobox', { name: 'Area' }).closest<HTMLElement>('.ant-form-item')!;
    expect(await within(areaItem).findByText(refusal)).toBeInTheDocument();
    expect(screen.queryByText(/SCIM token Workday/)).not.toBeInTheDocument();
  });

  it('revokes a token after a confirmation naming its area, then sends DELETE', async () => {
    const revoke = `DELETE /api/v1/admin/applications/crm/scimTokens/${entra.id}`;
    const { fetchMock } = await renderTab({ api: { [revoke]: () => new Response(null, { status: 204 }) } });
    await screen.findByText('Entra ID');

    fireEvent.click(within(rowOf('Entra ID')).getByLabelText('Revoke the token Entra ID'));
    const confirm = await dialogWith('Revoke the token Entra ID?');
    expect(confirm).toHaveTextContent('the area North is no longer kept in step through this token');
    expect(sentTo(fetchMock, revoke)).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));

    expect(await screen.findByText('The token Entra ID has been revoked')).toBeInTheDocument();
    expect(sentTo(fetchMock, revoke)).toHaveLength(1);
    await waitFor(() => expect(sentTo(fetchMock, TOKENS)).toHaveLength(2));
  });

  it('keeps a token whose revocation is cancelled', async () => {
    const revoke = `DELETE /api/v1/admin/applications/crm/scimTokens/${entra.id}`;
    const { fetchMock } = await renderTab();
    await screen.findByText('Entra ID');

    fireEvent.click(within(rowOf('Entra ID')).getByLabelText('Revoke the token Entra ID'));
    fireEvent.click(within(await dialogWith('Revoke the token Entra ID?')).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByText('Revoke the token Entra ID?')).not.toBeInTheDocument());
    expect(sentTo(fetchMock, revoke)).toHaveLength(0);
  });

  it('is offered to God too', async () => {
    await renderTab({ roles: ['God'] });
    expect(await screen.findByRole('tab', { name: 'SCIM provisioning', selected: true })).toBeInTheDocument();
    expect(await screen.findByText('Entra ID')).toBeInTheDocument();
  });

  it('is absent for a non-administrator, whose /scim address opens the Roles tab without asking for tokens', async () => {
    const { fetchMock } = await renderTab({ roles: ['TenantAdministrator'] });

    expect(await screen.findByRole('tab', { name: 'Roles', selected: true })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'SCIM provisioning' })).not.toBeInTheDocument();
    expect(sentTo(fetchMock, TOKENS)).toHaveLength(0);
  });

  it('is absent for the Identity application, even for an administrator', async () => {
    const { fetchMock } = await renderTab({ subject: identity });

    expect(await screen.findByRole('heading', { level: 1, name: 'Identity Management' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Roles', selected: true })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'SCIM provisioning' })).not.toBeInTheDocument();
    expect(sentTo(fetchMock, 'GET /api/v1/admin/applications/1/scimTokens')).toHaveLength(0);
  });

  it('is offered on an application’s page, and opens at /applications/{id}/scim', async () => {
    await renderTab({ route: '/applications/crm' });

    fireEvent.click(await screen.findByRole('tab', { name: 'SCIM provisioning' }));
    expect(await screen.findByRole('tab', { name: 'SCIM provisioning', selected: true })).toBeInTheDocument();
    expect(await screen.findByText('Entra ID')).toBeInTheDocument();
  });
});

describe('the expiry picker', () => {
  it('offers the days from tomorrow to two years ahead', () => {
    const today = dayjs();
    expect(outOfRange(today.subtract(1, 'day'))).toBe(true);
    expect(outOfRange(today)).toBe(true);
    expect(outOfRange(today.add(1, 'day'))).toBe(false);
    expect(outOfRange(today.add(2 * 365, 'day'))).toBe(false);
    expect(outOfRange(today.add(2 * 365 + 1, 'day'))).toBe(true);
  });
});
