import { WEBHOOK_EVENT_TYPES } from '@gatehouse/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp, renderPage, type ApiRoutes } from '../../test-utils';
import type { ApplicationSummary } from '../applications/applications-api';
import { bodiesTo, bodyRows, choose, dialogWith, list, localDateTime, PAGE_TEST_TIMEOUT, queriesTo, sentTo, type } from '../directory/test-helpers';
import WebhookDetailPage from './WebhookDetailPage';
import type { SavedWebhook, Webhook, WebhookDelivery } from './webhooks-api';
import WebhooksPage from './WebhooksPage';

const LIST = 'GET /api/v1/admin/webhooks';
const CREATE = 'POST /api/v1/admin/webhooks';
const APPLICATIONS = 'GET /api/v1/admin/applications';
const NAMESPACES = ['admin', 'directory', 'webhooks'] as const;

const CRM_HOOK_ID = '0b1e4a52-7d3c-4f0e-9a51-1c2d3e4f5a6b';
const GLOBAL_HOOK_ID = '5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f';
const OFF_HOOK_ID = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';

/** An endpoint of the list: global, hearing user.created, on, nothing waiting; `overrides` say the rest. */
function webhook(overrides: Partial<Webhook> & Pick<Webhook, 'id' | 'url'>): Webhook {
  return {
    description: null,
    events: ['user.created'],
    applicationId: null,
    applicationName: null,
    enabled: true,
    disabledReason: null,
    previousSecretExpiresAt: null,
    createdAt: '2026-03-04T10:00:00.000Z',
    createdByName: 'Ada Admin',
    pendingDeliveries: 0,
    failedDeliveries: 0,
    ...overrides,
  };
}

/** One delivery of an endpoint's log: a user.created that went through at the first attempt. */
function delivery(overrides: Partial<WebhookDelivery> & Pick<WebhookDelivery, 'id'>): WebhookDelivery {
  return {
    eventId: `event-${overrides.id}`,
    eventType: 'user.created',
    status: 'Succeeded',
    attempts: 1,
    lastStatusCode: 200,
    lastDurationMs: 85,
    lastError: null,
    createdAt: '2026-03-05T08:00:00.000Z',
    lastAttemptAt: '2026-03-05T08:00:01.000Z',
    nextAttemptAt: null,
    deliveredAt: '2026-03-05T08:00:01.000Z',
    ...overrides,
  };
}

/** An application of the form's select. */
function application(id: string, displayName: string): ApplicationSummary {
  return {
    id,
    name: id,
    displayName,
    description: null,
    type: 'confidential',
    status: 'Running',
    enabled: true,
    prerelease: false,
    hideInUserList: false,
    privateUrl: `https://${id}.example.com/`,
    publicUrl: null,
    protocol: 'oidc',
    modifiedOn: '2026-03-04T10:00:00.000Z',
    userIsOwner: false,
    system: false,
  };
}

const crmHook = webhook({
  id: CRM_HOOK_ID,
  url: 'https://crm-hooks.example.com/gatehouse',
  description: 'Keeps the CRM’s contacts in step',
  applicationId: 'crm',
  applicationName: 'CRM',
  events: ['role.granted', 'role.revoked', 'sign_in.succeeded'],
  pendingDeliveries: 2,
});
const globalHook = webhook({
  id: GLOBAL_HOOK_ID,
  url: 'https://siem.example.com/in',
  events: [...WEBHOOK_EVENT_TYPES],
  enabled: false,
  disabledReason: 'failing',
  failedDeliveries: 4,
});
const offHook = webhook({ id: OFF_HOOK_ID, url: 'https://audit.example.com/hook', events: ['role.granted'], enabled: false });

const rowOf = (url: string) => screen.getByRole('link', { name: url }).closest('tr')!;

beforeEach(() => sessionStorage.clear());

describe('WebhooksPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  function renderList(api: ApiRoutes = {}) {
    return renderPage(<WebhooksPage />, {
      route: '/webhooks',
      pattern: '/webhooks',
      namespaces: [...NAMESPACES],
      api: {
        [LIST]: list([crmHook, globalHook, offHook]),
        [APPLICATIONS]: list([application('crm', 'CRM'), application('wiki', 'Wiki')]),
        ...api,
      },
    });
  }

  it('lists the endpoints: address, description, application or All, events, status, pending and failed deliveries', async () => {
    await renderList();

    expect(await screen.findByRole('link', { name: crmHook.url })).toHaveAttribute('href', `/webhooks/${CRM_HOOK_ID}`);
    expect(bodyRows()).toHaveLength(3);

    const crm = within(rowOf(crmHook.url));
    expect(crm.getByText('Keeps the CRM’s contacts in step')).toBeInTheDocument();
    expect(crm.getByText('CRM')).toBeInTheDocument();
    expect(crm.getByText('3 events')).toBeInTheDocument();
    expect(crm.getByText('On')).toBeInTheDocument();
    expect(crm.getByText('2')).toBeInTheDocument();

    const global = within(rowOf(globalHook.url));
    expect(global.getByText('All')).toBeInTheDocument();
    expect(global.getByText('All events')).toBeInTheDocument();
    expect(global.getByText('Turned off: failing')).toBeInTheDocument();
    expect(global.getByText('4')).toBeInTheDocument();

    const off = within(rowOf(offHook.url));
    expect(off.getByText('Role granted')).toBeInTheDocument();
    expect(off.getByText('Off')).toBeInTheDocument();
  });

  it('searches the addresses, descriptions and applications in the list it has', async () => {
    const { fetchMock } = await renderList();
    await screen.findByRole('link', { name: crmHook.url });

    type(screen.getByRole('searchbox', { name: 'Search' }), 'siem');

    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(screen.getByRole('link', { name: globalHook.url })).toBeInTheDocument();
    expect(sentTo(fetchMock, LIST)).toHaveLength(1);
  });

  describe('New endpoint', () => {
    async function openDialog(api: ApiRoutes = {}) {
      const rendered = await renderList(api);
      await screen.findByRole('link', { name: crmHook.url });
      fireEvent.click(screen.getByRole('button', { name: /New endpoint/ }));
      return { ...rendered, dialog: await dialogWith('A signing secret is generated') };
    }

    it('creates an endpoint for an application, sends the events ticked, shows its secret once, then opens its page', async () => {
      const writeText = vi.fn(async () => undefined);
      vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
      const created: SavedWebhook = {
        ...webhook({ id: CRM_HOOK_ID, url: 'https://hooks.example.com/in', description: 'SIEM', applicationId: 'crm', applicationName: 'CRM' }),
        events: ['user.created', 'sign_in.succeeded', 'sign_in.failed'],
        secret: 'whsec_c2VjcmV0LXZhbHVl',
      };
      const { dialog, fetchMock } = await openDialog({ [CREATE]: () => jsonResponse(created, 201) });

      type(within(dialog).getByLabelText('URL'), ' https://hooks.example.com/in ');
      type(within(dialog).getByLabelText('Description'), 'SIEM');
      await choose('Application', 'CRM (crm)', dialog);
      fireEvent.click(within(dialog).getByRole('checkbox', { name: /^Sign-ins/ }));
      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'User created user.created' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

      const secretDialog = await dialogWith('Signing secret of https://hooks.example.com/in');
      expect(within(secretDialog).getByLabelText('Signing secret')).toHaveValue('whsec_c2VjcmV0LXZhbHVl');
      expect(secretDialog).toHaveTextContent('once you close this dialog, you will not see it again');
      fireEvent.click(within(secretDialog).getByRole('button', { name: /Copy/ }));
      await waitFor(() => expect(writeText).toHaveBeenCalledWith('whsec_c2VjcmV0LXZhbHVl'));
      expect(await bodiesTo(fetchMock, CREATE)).toEqual([
        {
          url: 'https://hooks.example.com/in',
          description: 'SIEM',
          // In the contract's order, whatever the order they were ticked in.
          events: ['user.created', 'sign_in.succeeded', 'sign_in.failed'],
          enabled: true,
          applicationId: 'crm',
        },
      ]);

      // The footer's Close (the title bar has one too).
      fireEvent.click(within(secretDialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
      expect(await screen.findByTestId('location')).toHaveTextContent(`/webhooks/${CRM_HOOK_ID}`);
      expect(screen.queryByDisplayValue('whsec_c2VjcmV0LXZhbHVl')).not.toBeInTheDocument();
      vi.unstubAllGlobals();
    });

    it('creates a global endpoint, turned off, when no application is chosen', async () => {
      const created: SavedWebhook = { ...webhook({ id: OFF_HOOK_ID, url: 'https://audit.example.com/hook', enabled: false }), secret: 'whsec_b2Zm' };
      const { dialog, fetchMock } = await openDialog({ [CREATE]: () => jsonResponse(created, 201) });

      type(within(dialog).getByLabelText('URL'), 'https://audit.example.com/hook');
      fireEvent.click(within(dialog).getByRole('checkbox', { name: /^Role granted/ }));
      fireEvent.click(within(dialog).getByRole('switch', { name: 'On' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

      await dialogWith('Signing secret of https://audit.example.com/hook');
      expect(await bodiesTo(fetchMock, CREATE)).toEqual([
        { url: 'https://audit.example.com/hook', description: null, events: ['role.granted'], enabled: false, applicationId: null },
      ]);
    });

    it('checks the address as the server does: https, http only on localhost', async () => {
      const { dialog, fetchMock } = await openDialog();

      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText('Enter the address of the endpoint')).toBeInTheDocument();

      const message = 'Enter an absolute address starting with https:// (http:// only on localhost), without credentials or #';
      type(within(dialog).getByLabelText('URL'), 'http://hooks.example.com/in');
      expect(await within(dialog).findByText(message)).toBeInTheDocument();
      type(within(dialog).getByLabelText('URL'), 'http://localhost:8080/hook');
      await waitFor(() => expect(within(dialog).queryByText(message)).not.toBeInTheDocument());
      expect(sentTo(fetchMock, CREATE)).toHaveLength(0);
    });

    it('puts the server’s refusal of the address under the URL field', async () => {
      const refusal = 'This address is on a private or loopback network: webhooks are not sent there unless the deployment allows private networks';
      const { dialog } = await openDialog({
        [CREATE]: () =>
          jsonResponse({ code: 'webhooks.private_address', message: refusal, errors: [{ field: 'url', code: 'webhooks.private_address', message: refusal }] }, 400),
      });

      type(within(dialog).getByLabelText('URL'), 'https://10.0.0.5/hook');
      fireEvent.click(within(dialog).getByRole('checkbox', { name: /^User deleted/ }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

      const urlItem = within(dialog).getByLabelText('URL').closest<HTMLElement>('.ant-form-item')!;
      expect(await within(urlItem).findByText(refusal)).toBeInTheDocument();
      // Under the field, not in a banner above the form.
      expect(within(dialog).queryByText('An error occurred')).not.toBeInTheDocument();
      expect(screen.queryByText(/Signing secret of/)).not.toBeInTheDocument();
    });

    // Thirty-odd boxes rendered and validated several times: some 6 s alone, several times that beside CI's other lanes.
    // The limit bounds a hang, it is no speed check.
    it('requires one event at least; "Select all" and a group’s box tick and clear their events', { timeout: 120_000 }, async () => {
      const { dialog, fetchMock } = await openDialog();
      const events = within(within(dialog).getByRole('group', { name: 'Events' }));
      const ticked = () => events.getAllByRole('checkbox', { checked: true }).length;
      const eventBoxes = () => events.getAllByRole('checkbox').filter((box) => box.closest('.webhooks-events__event'));

      type(within(dialog).getByLabelText('URL'), 'https://hooks.example.com/in');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText('Choose at least one event')).toBeInTheDocument();

      fireEvent.click(events.getByRole('checkbox', { name: 'Select all' }));
      await waitFor(() => expect(within(dialog).queryByText('Choose at least one event')).not.toBeInTheDocument());
      expect(eventBoxes()).toHaveLength(WEBHOOK_EVENT_TYPES.length);
      expect(eventBoxes().every((box) => (box as HTMLInputElement).checked)).toBe(true);
      // Every box: the events, their five groups and "Select all".
      expect(ticked()).toBe(WEBHOOK_EVENT_TYPES.length + 6);

      fireEvent.click(events.getByRole('checkbox', { name: 'Select all' }));
      expect(events.queryAllByRole('checkbox', { checked: true })).toHaveLength(0);
      expect(await within(dialog).findByText('Choose at least one event')).toBeInTheDocument();

      fireEvent.click(events.getByRole('checkbox', { name: 'Roles and groups' }));
      expect(events.getByRole('checkbox', { name: 'Role granted role.granted' })).toBeChecked();
      expect(events.getByRole('checkbox', { name: 'Member removed from a group group.member_removed' })).toBeChecked();
      expect(events.getByRole('checkbox', { name: 'User created user.created' })).not.toBeChecked();
      expect(ticked()).toBe(5);
      expect(sentTo(fetchMock, CREATE)).toHaveLength(0);
    });
  });
});

describe('WebhookDetailPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  const DELIVERIES = `GET /api/v1/admin/webhooks/${CRM_HOOK_ID}/deliveries`;
  const failed = delivery({
    id: 'd2c1b0a9-8f7e-4d6c-9b5a-4e3d2c1b0a98',
    eventType: 'role.granted',
    status: 'Failed',
    attempts: 9,
    lastStatusCode: 503,
    lastDurationMs: 1200,
    lastError: 'The receiver answered 503 Service Unavailable: upstream maintenance window until 10:00',
    createdAt: '2026-03-05T09:15:00.000Z',
    lastAttemptAt: '2026-03-06T09:10:00.000Z',
    nextAttemptAt: null,
    deliveredAt: null,
  });
  const pending = delivery({
    id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    eventType: 'sign_in.succeeded',
    status: 'Pending',
    attempts: 2,
    lastStatusCode: null,
    lastDurationMs: null,
    lastError: 'connect ECONNREFUSED',
    createdAt: '2026-03-06T07:00:00.000Z',
    lastAttemptAt: '2026-03-06T07:05:00.000Z',
    nextAttemptAt: '2026-03-06T07:35:00.000Z',
    deliveredAt: null,
  });
  const succeeded = delivery({ id: 'f0e1d2c3-b4a5-4968-8776-655443322110' });

  /** The row of the delivery log whose event is named `event`, once the log has loaded. */
  const deliveryRow = async (event: string) =>
    (await within(await screen.findByRole('region', { name: 'Delivery log' })).findByText(event)).closest('tr')!;

  function renderDetail(subject: Webhook = crmHook, api: ApiRoutes = {}) {
    return renderPage(<WebhookDetailPage />, {
      route: `/webhooks/${subject.id}`,
      pattern: '/webhooks/:id',
      namespaces: [...NAMESPACES],
      api: {
        [`GET /api/v1/admin/webhooks/${subject.id}`]: subject,
        [`GET /api/v1/admin/webhooks/${subject.id}/deliveries`]: list([pending, failed, succeeded], 25),
        ...api,
      },
    });
  }

  it('shows the settings, the application fixed at creation, and the delivery log newest first', async () => {
    const { fetchMock } = await renderDetail();

    expect(await screen.findByRole('heading', { level: 1, name: crmHook.url })).toBeInTheDocument();
    expect(screen.getByLabelText('URL')).toHaveValue(crmHook.url);
    expect(screen.getByLabelText('Description')).toHaveValue('Keeps the CRM’s contacts in step');
    expect(screen.getByText('Set at creation: CRM')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Application' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Role granted role.granted' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'User created user.created' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'On' })).toBeChecked();

    const cells = within(await deliveryRow('Role granted'));
    const log = within(screen.getByRole('region', { name: 'Delivery log' }));
    expect(cells.getByText('role.granted')).toBeInTheDocument();
    expect(cells.getByText('Failed')).toBeInTheDocument();
    expect(cells.getByText('9')).toBeInTheDocument();
    expect(cells.getByText('503')).toBeInTheDocument();
    expect(cells.getByText('1200 ms')).toBeInTheDocument();
    expect(cells.getByText(failed.lastError!)).toHaveClass('webhooks-delivery-error');
    expect(cells.getByText(localDateTime(failed.createdAt))).toBeInTheDocument();
    expect(cells.getByText(localDateTime(failed.lastAttemptAt!))).toBeInTheDocument();
    const pendingRow = within(log.getByText('Successful sign-in').closest('tr')!);
    expect(pendingRow.getByText('Pending')).toBeInTheDocument();
    expect(pendingRow.getByText(localDateTime(pending.nextAttemptAt!))).toBeInTheDocument();
    expect(log.getByText('1–10 of 25')).toBeInTheDocument();
    expect(queriesTo(fetchMock, DELIVERIES)[0]).toEqual({ top: '10', skip: '0', orderBy: 'createdAt desc' });
  });

  it('filters the log by status and pages it with top and skip', async () => {
    const { fetchMock } = await renderDetail();
    await deliveryRow('Role granted');

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(queriesTo(fetchMock, DELIVERIES).at(-1)).toEqual({ top: '10', skip: '10', orderBy: 'createdAt desc' }));

    await choose('Status', 'Failed');
    await waitFor(() => expect(queriesTo(fetchMock, DELIVERIES).at(-1)).toEqual({ top: '10', skip: '0', orderBy: 'createdAt desc', status: 'Failed' }));
  });

  it('sends a delivery again with the endpoint’s and the delivery’s ids, then reloads the log', async () => {
    const resend = `POST /api/v1/admin/webhooks/${CRM_HOOK_ID}/deliveries/${failed.id}/resend`;
    const { fetchMock } = await renderDetail(crmHook, { [resend]: () => jsonResponse({ ...failed, status: 'Pending', attempts: 0 }) });
    await deliveryRow('Role granted');
    const before = sentTo(fetchMock, DELIVERIES).length;

    fireEvent.click(screen.getByRole('button', { name: `Send the delivery of Role granted of ${localDateTime(failed.createdAt)} again` }));

    expect(await screen.findByText('The delivery will be sent again shortly')).toBeInTheDocument();
    expect(sentTo(fetchMock, resend)).toHaveLength(1);
    await waitFor(() => expect(sentTo(fetchMock, DELIVERIES).length).toBeGreaterThan(before));
  });

  it('rotates the secret after a confirmation that tells of the day of overlap, and shows the new one once', async () => {
    const expires = '2026-03-07T09:00:00.000Z';
    const rotate = `POST /api/v1/admin/webhooks/${CRM_HOOK_ID}/rotateSecret`;
    const { fetchMock } = await renderDetail(crmHook, { [rotate]: () => jsonResponse({ secret: 'whsec_bmV3LXNlY3JldA==', previousSecretExpiresAt: expires }) });
    await screen.findByRole('heading', { level: 1, name: crmHook.url });

    fireEvent.click(screen.getByRole('button', { name: /Rotate secret/ }));
    const confirm = await dialogWith(`Rotate the signing secret of ${crmHook.url}?`);
    expect(confirm).toHaveTextContent('For a day, deliveries are signed with both the new and the previous secret');
    expect(sentTo(fetchMock, rotate)).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Rotate secret' }));

    const secretDialog = await dialogWith(`Signing secret of ${crmHook.url}`);
    expect(within(secretDialog).getByLabelText('Signing secret')).toHaveValue('whsec_bmV3LXNlY3JldA==');
    expect(secretDialog).toHaveTextContent('you will not see it again');
    expect(secretDialog).toHaveTextContent(`Deliveries are also signed with the previous secret until ${localDateTime(expires)}.`);
    expect(sentTo(fetchMock, rotate)).toHaveLength(1);

    fireEvent.click(within(secretDialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByDisplayValue('whsec_bmV3LXNlY3JldA==')).not.toBeInTheDocument());
  });

  it('saves the settings without the application, which stays as created', async () => {
    const update = `PUT /api/v1/admin/webhooks/${CRM_HOOK_ID}`;
    const { fetchMock } = await renderDetail(crmHook, { [update]: () => jsonResponse({ ...crmHook, enabled: false }) });
    await screen.findByRole('heading', { level: 1, name: crmHook.url });

    type(screen.getByLabelText('Description'), '');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Role revoked role.revoked' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'User created user.created' }));
    fireEvent.click(screen.getByRole('switch', { name: 'On' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, update)).toEqual([
      { url: crmHook.url, description: null, events: ['user.created', 'role.granted', 'sign_in.succeeded'], enabled: false },
    ]);
  });

  it('puts the server’s refusal of a changed address under the URL field', async () => {
    const update = `PUT /api/v1/admin/webhooks/${CRM_HOOK_ID}`;
    const refusal = 'Enter an absolute address starting with https:// (http:// only on localhost), without credentials or #';
    await renderDetail(crmHook, {
      [update]: () => jsonResponse({ code: 'webhooks.invalid_url', message: refusal, errors: [{ field: 'url', code: 'webhooks.invalid_url', message: refusal }] }, 400),
    });
    await screen.findByRole('heading', { level: 1, name: crmHook.url });

    type(screen.getByLabelText('URL'), 'https://hooks.example.com/other');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const urlItem = screen.getByLabelText('URL').closest<HTMLElement>('.ant-form-item')!;
    expect(await within(urlItem).findByText(refusal)).toBeInTheDocument();
    expect(screen.queryByText('Changes have been saved')).not.toBeInTheDocument();
  });

  it('says why the product turned a failing endpoint off', async () => {
    await renderDetail(globalHook, { [`GET /api/v1/admin/webhooks/${GLOBAL_HOOK_ID}/deliveries`]: list([]) });

    expect(await screen.findByRole('heading', { level: 1, name: globalHook.url })).toBeInTheDocument();
    expect(screen.getAllByText('Turned off: failing').length).toBeGreaterThan(0);
    expect(screen.getByText(/Its deliveries kept failing for a day/)).toBeInTheDocument();
    expect(screen.getByText('Set at creation: all applications (global)')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'On' })).not.toBeChecked();
  });

  it('deletes the endpoint after confirmation, back to the list', async () => {
    const remove = `DELETE /api/v1/admin/webhooks/${CRM_HOOK_ID}`;
    const { fetchMock } = await renderDetail(crmHook, { [remove]: () => new Response(null, { status: 204 }) });
    await screen.findByRole('heading', { level: 1, name: crmHook.url });

    fireEvent.click(screen.getByRole('button', { name: /Delete/ }));
    const confirm = await dialogWith(`Delete the endpoint ${crmHook.url}?`);
    expect(confirm).toHaveTextContent('Its delivery log is deleted with it');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByTestId('location')).toHaveTextContent('/webhooks');
    expect(sentTo(fetchMock, remove)).toHaveLength(1);
  });

  it('answers the server’s "not found" for an unknown endpoint', async () => {
    const gone = '00000000-0000-4000-8000-000000000000';
    await renderDetail(webhook({ id: gone, url: 'https://gone.example.com/' }), {
      [`GET /api/v1/admin/webhooks/${gone}`]: jsonResponse({ code: 'webhooks.not_found', message: 'Webhook endpoint not found' }, 404),
    });
    expect(await screen.findByText('Webhook endpoint not found')).toBeInTheDocument();
  });
});

describe('the Webhooks entry of the console', { timeout: PAGE_TEST_TIMEOUT }, () => {
  async function menuLinks(roles: string[]) {
    await renderApp({ roles });
    await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Admin' });
    const menu = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    return menu.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
  }

  it.each([[['Administrator']], [['God']]])('is in the navigation of %j, leading to /admin/webhooks', async (roles) => {
    expect(await menuLinks(roles)).toContainEqual(['Webhooks', '/admin/webhooks']);
  });

  it.each([[['TenantAdministrator']], [['AreaAdministrator']], [['Manager']]])('is not in the navigation of %j', async (roles) => {
    expect((await menuLinks(roles)).map(([label]) => label)).not.toContain('Webhooks');
  });

  it('opens the list at /admin/webhooks and an endpoint at /admin/webhooks/{id}', async () => {
    await renderApp({
      path: '/webhooks',
      namespaces: [...NAMESPACES],
      api: { [LIST]: list([crmHook]), [`GET /api/v1/admin/webhooks/${CRM_HOOK_ID}`]: crmHook, [`GET /api/v1/admin/webhooks/${CRM_HOOK_ID}/deliveries`]: list([]) },
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Webhooks' })).toBeInTheDocument();
    const menu = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(menu.getByRole('link', { name: 'Webhooks' }).closest('li')).toHaveClass('ant-menu-item-selected');

    fireEvent.click(await screen.findByRole('link', { name: crmHook.url }));
    expect(await screen.findByRole('heading', { level: 1, name: crmHook.url })).toBeInTheDocument();
    expect(window.location.pathname).toBe(`/admin/webhooks/${CRM_HOOK_ID}`);
  });

  it('tells a TenantAdministrator who follows a link that the page is not open to their roles, asking nothing of the API', async () => {
    const { fetchMock } = await renderApp({ path: '/webhooks', roles: ['TenantAdministrator'] });

    expect(await screen.findByText('Not open to your roles')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeInTheDocument();
    expect(sentTo(fetchMock, LIST)).toHaveLength(0);
  });
});
