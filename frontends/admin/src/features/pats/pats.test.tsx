import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp, renderPage } from '../../test-utils';
import { bodiesTo, bodyRows, choose, dialogWith, list, localDateTime, PAGE_TEST_TIMEOUT, queriesTo, sentTo, type } from '../directory/test-helpers';
import ControlPatsPage from './ControlPatsPage';
import { outOfRange } from './NewPatDialog';
import PatsPage from './PatsPage';
import type { CreatedPersonalAccessToken, PersonalAccessToken } from './pats-api';

const MINE = 'GET /api/v1/keys';
const ALL = 'GET /api/v1/keys/allpats';
const APPLICATIONS = { 'GET /api/v1/keys/applications': list([{ id: '1', name: 'identity', displayName: 'Identity' }, { id: 'crm', name: 'crm', displayName: 'CRM' }]) };

const DEPLOY: PersonalAccessToken = {
  id: '11111111-1111-1111-1111-111111111111',
  name: 'Deploy',
  applicationId: '1',
  applicationName: 'identity',
  applicationDisplayName: 'Identity',
  hint: 'gpat_…Xy9z',
  expiresAt: '2030-06-15T10:00:00.000Z',
  lastDateOfUse: new Date(Date.now() - 3 * 24 * 3600_000).toISOString(),
  createdAt: '2025-06-15T10:00:00.000Z',
  createdById: 'admin-1',
  createByName: 'ada@example.com',
};
const OLD: PersonalAccessToken = {
  ...DEPLOY,
  id: '22222222-2222-2222-2222-222222222222',
  name: 'Old export',
  applicationId: 'crm',
  applicationName: 'crm',
  applicationDisplayName: 'CRM',
  hint: 'gpat_…Ab12',
  expiresAt: '2024-01-01T00:00:00.000Z',
  lastDateOfUse: null,
  createdById: 'u-2',
  createByName: 'bob@example.com',
};
const VALUE = 'gpat_q8W3nC0ZbVxk2mY7tRfA1sLh9JdEoPuGiK4yT6wXeN5';
const CREATED: CreatedPersonalAccessToken = { ...DEPLOY, id: '33333333-3333-3333-3333-333333333333', name: 'Nightly', hint: 'gpat_…XeN5', lastDateOfUse: null, token: VALUE };

const day = (value: dayjs.Dayjs) => value.format('DD-MM-YYYY');

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('PatsPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it("lists the caller's tokens by name with their application, expiry and last use", async () => {
    const { fetchMock } = await renderPage(<PatsPage />, { route: '/pats', api: { [MINE]: list([DEPLOY, OLD]) } });

    expect(await screen.findByText('Deploy')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Personal Access Tokens' })).toBeInTheDocument();
    const [deploy, old] = bodyRows();
    expect(deploy).toHaveTextContent('Identity');
    expect(deploy).toHaveTextContent('gpat_…Xy9z');
    expect(deploy).toHaveTextContent('15-06-2030');
    expect(deploy).toHaveTextContent(localDateTime(DEPLOY.lastDateOfUse!));
    expect(deploy).toHaveTextContent('3 days ago');
    expect(deploy).toHaveTextContent(localDateTime(DEPLOY.createdAt));
    expect(old).toHaveTextContent('01-01-2024');
    expect(old).toHaveTextContent('Expired');
    expect(old).toHaveTextContent('Never');
    expect(queriesTo(fetchMock, MINE)[0]).toEqual({ skip: '0', top: '10', orderBy: 'name asc' });
  });

  it('asks for a name and an application, suggests an expiry five years ahead, and shows the new value once', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { fetchMock, store } = await renderPage(<PatsPage />, {
      route: '/pats',
      api: { [MINE]: list([DEPLOY]), ...APPLICATIONS, 'POST /api/v1/keys': () => jsonResponse(CREATED, 201) },
    });
    await screen.findByText('Deploy');
    fireEvent.click(screen.getByRole('button', { name: /New PAT/ }));
    const dialog = await dialogWith('New PAT');
    expect(within(dialog).getByLabelText('Expiry')).toHaveValue(day(dayjs().add(5, 'year')));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText("Please input your PAT's name!")).toBeInTheDocument();
    expect(within(dialog).getByText("Please select your PAT's Application!")).toBeInTheDocument();
    expect(sentTo(fetchMock, 'POST /api/v1/keys')).toHaveLength(0);

    type(within(dialog).getByLabelText('Name'), 'Nightly');
    await choose('Application', 'CRM', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    const created = await dialogWith('PAT created');
    expect(within(created).getByText(/Save it carefully since once you close this dialog, you will not see the token anymore/)).toBeInTheDocument();
    expect(within(created).getByLabelText('Token')).toHaveValue(VALUE);
    expect(await bodiesTo(fetchMock, 'POST /api/v1/keys')).toEqual([
      { name: 'Nightly', applicationName: 'crm', expiresAt: dayjs().add(5, 'year').startOf('day').toISOString() },
    ]);

    fireEvent.click(within(created).getByRole('button', { name: /Copy/ }));
    expect(await screen.findByText('PAT copied to clipboard!')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(VALUE);

    // The footer's Close (the title bar has its own).
    fireEvent.click(within(created).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByDisplayValue(VALUE)).not.toBeInTheDocument());
    expect(document.body.innerHTML).not.toContain(VALUE);
    expect(JSON.stringify(store.getState())).not.toContain(VALUE);
  });

  it("shows the server's refusal of the application under its field", async () => {
    await renderPage(<PatsPage />, {
      route: '/pats',
      api: {
        [MINE]: list([]),
        ...APPLICATIONS,
        'POST /api/v1/keys': () =>
          jsonResponse(
            {
              code: 'pats.application_forbidden',
              message: 'You do not have permission to get a personal access token for this application',
              errors: [{ field: 'applicationName', code: 'pats.application_forbidden', message: 'You do not have permission to get a personal access token for this application' }],
            },
            403,
          ),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: /New PAT/ }));
    const dialog = await dialogWith('New PAT');
    type(within(dialog).getByLabelText('Name'), 'Nightly');
    await choose('Application', 'CRM', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await within(dialog).findByText('You do not have permission to get a personal access token for this application')).toBeInTheDocument();
    expect(screen.queryByText('PAT created')).not.toBeInTheDocument();
  });

  it('deletes a token after confirmation', async () => {
    const { fetchMock } = await renderPage(<PatsPage />, {
      route: '/pats',
      api: { [MINE]: list([DEPLOY]), [`DELETE /api/v1/keys/${DEPLOY.id}`]: new Response(null, { status: 204 }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the token Deploy' }));
    const confirm = await dialogWith('Delete the token Deploy?');
    expect(confirm).toHaveTextContent('Whatever uses it is refused from now on.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('The token Deploy has been deleted')).toBeInTheDocument();
    expect(sentTo(fetchMock, `DELETE /api/v1/keys/${DEPLOY.id}`)).toHaveLength(1);
  });

  it('keeps a cancelled deletion', async () => {
    const { fetchMock } = await renderPage(<PatsPage />, { route: '/pats', api: { [MINE]: list([DEPLOY]) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the token Deploy' }));
    fireEvent.click(within(await dialogWith('Delete the token Deploy?')).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByText('Delete the token Deploy?')).not.toBeInTheDocument());
    expect(sentTo(fetchMock, `DELETE /api/v1/keys/${DEPLOY.id}`)).toHaveLength(0);
  });
});

describe('the expiry picker', () => {
  it('offers the days from tomorrow to five years ahead', () => {
    const today = dayjs();
    expect(outOfRange(today.subtract(1, 'day'))).toBe(true);
    expect(outOfRange(today)).toBe(true);
    expect(outOfRange(today.add(1, 'day'))).toBe(false);
    expect(outOfRange(today.add(5, 'year'))).toBe(false);
    expect(outOfRange(today.add(5, 'year').add(1, 'day'))).toBe(true);
  });
});

describe('ControlPatsPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  const USERS = 'GET /api/v1/admin/users';
  const bob = { id: 'u-2', userName: 'bob@example.com', email: 'bob@example.com', firstName: '', lastName: '', areaId: 'a1', areaName: 'North', validateScopes: false, locked: false, draft: false, modifiedOn: '2026-03-04T10:00:00Z', language: 'en' };

  it("lists every user's tokens with their owner, and filters them by owner", async () => {
    const { fetchMock } = await renderPage(<ControlPatsPage />, {
      route: '/control-pats',
      roles: ['God'],
      api: { [ALL]: list([DEPLOY, OLD]), [USERS]: list([bob]) },
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'PATS Control' })).toBeInTheDocument();
    const [, old] = bodyRows();
    expect(old).toHaveTextContent('bob@example.com');
    await choose('Owner', 'bob@example.com');

    await waitFor(() => expect(queriesTo(fetchMock, ALL).at(-1)).toEqual({ skip: '0', top: '10', orderBy: 'name asc', owner: 'u-2' }));
  });

  it("deletes anyone's token after confirmation", async () => {
    const { fetchMock } = await renderPage(<ControlPatsPage />, {
      route: '/control-pats',
      roles: ['God'],
      api: { [ALL]: list([OLD]), [USERS]: list([bob]), [`DELETE /api/v1/keys/${OLD.id}`]: new Response(null, { status: 204 }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the token Old export' }));
    fireEvent.click(within(await dialogWith('Delete the token Old export?')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('The token Old export has been deleted')).toBeInTheDocument();
    expect(sentTo(fetchMock, `DELETE /api/v1/keys/${OLD.id}`)).toHaveLength(1);
  });
});

describe('PAT routes', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('opens /admin/pats from the side menu', async () => {
    await renderApp({ path: '/pats', namespaces: ['admin', 'directory'], api: { [MINE]: list([DEPLOY]) } });

    expect(await screen.findByText('Deploy', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.queryByText('Not available yet')).not.toBeInTheDocument();
  });

  it('opens /admin/control-pats to God', async () => {
    await renderApp({ path: '/control-pats', roles: ['God'], namespaces: ['admin', 'directory'], api: { [ALL]: list([OLD]), 'GET /api/v1/admin/users': list([]) } });

    expect(await screen.findByText('Old export', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'PATS Control' })).toBeInTheDocument();
  });
});
