import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestI18n, jsonResponse, renderSignedIn, stubApi } from '../test-utils';
import type { ClientUser } from './clients-api';
import { CLIENTS_COLUMNS_KEY, ClientsTable } from './ClientsTable';

const TENANT = { id: '10000000-0000-0000-0000-000000000001', title: 'Acme' };
const USERS = `/api/v1/admin/clients/${TENANT.id}/users`;

let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
});

function user(overrides: Partial<ClientUser> & Pick<ClientUser, 'id' | 'fullName' | 'userName'>): ClientUser {
  return {
    email: overrides.userName,
    firstName: null,
    lastName: null,
    areaId: 'a1',
    areaName: 'Default',
    locked: false,
    draft: false,
    modifiedOn: '2025-01-31T10:00:00.000Z',
    language: 'en',
    phoneNumber: null,
    jobTitle: 'Buyer',
    manager: null,
    teams: [],
    hasPendingOperationRequest: false,
    status: 'Applied',
    userType: 2,
    hasSignedIn: true,
    ...overrides,
  };
}

const TEAMS = Array.from({ length: 12 }, (_, index) => `Team ${index + 1}`);
const ANN = user({ id: 'ann', fullName: 'Ann Lee', userName: 'ann@acme.com', teams: TEAMS });
const DRAFT = user({ id: 'dan', fullName: 'Dan Draft', userName: 'dan@acme.com', draft: true, status: 'Waiting', hasPendingOperationRequest: true });

describe('ClientsTable', () => {
  it('shows each user: user name struck through with a lock when draft or locked, the first 10 departments then +N, the status', async () => {
    stubApi({ [`GET ${USERS}`]: { items: [ANN, DRAFT], count: 2 } });
    renderSignedIn(<ClientsTable tenant={TENANT} canAutoApprove={false} onSaved={vi.fn()} />, { i18n });

    const ann = (await screen.findByText('Ann Lee')).closest('tr')!;
    // The user name and the e-mail, each whole in its cell.
    expect(within(ann).getAllByText('ann@acme.com').map((name) => name.closest('td'))).toHaveLength(2);
    expect(ann.querySelector('s')).toBeNull();
    expect(within(ann).queryByRole('img', { name: 'User pending approval.' })).not.toBeInTheDocument();
    expect(within(ann).getByText('Team 10')).toBeInTheDocument();
    expect(within(ann).queryByText('Team 11')).not.toBeInTheDocument();
    expect(within(ann).getByText('+2')).toBeInTheDocument();
    expect(within(ann).getByText('Applied')).toBeInTheDocument();

    const dan = screen.getByText('Dan Draft').closest('tr')!;
    expect(within(dan).getAllByText('dan@acme.com')[0]!.closest('s')).not.toBeNull();
    expect(within(dan).getByRole('img', { name: 'User pending approval.' })).toBeInTheDocument();
    expect(within(dan).getByText('Waiting')).toBeInTheDocument();
  });

  it('labels a draft not yet submitted as Draft, and one whose request waits as Waiting', async () => {
    const unsubmitted = user({ id: 'sue', fullName: 'Sue Saved', userName: 'sue@acme.com', draft: true, status: 'Draft' });
    stubApi({ [`GET ${USERS}`]: { items: [unsubmitted, DRAFT], count: 2 } });
    renderSignedIn(<ClientsTable tenant={TENANT} canAutoApprove={false} onSaved={vi.fn()} />, { i18n });

    const sue = (await screen.findByText('Sue Saved')).closest('tr')!;
    expect(within(sue).getByText('Draft')).toBeInTheDocument();
    expect(within(sue).queryByText('Applied')).not.toBeInTheDocument();
    const dan = screen.getByText('Dan Draft').closest('tr')!;
    expect(within(dan).getByText('Waiting')).toBeInTheDocument();
  });

  it('never cuts a name, a user name or an e-mail, and lets the user hide the other columns, remembered in this browser', async () => {
    stubApi({ [`GET ${USERS}`]: { items: [ANN], count: 1 } });
    renderSignedIn(<ClientsTable tenant={TENANT} canAutoApprove={false} onSaved={vi.fn()} />, { i18n });
    await screen.findByText('Ann Lee');

    for (const name of ['Name', 'User name', 'E-mail']) expect(screen.getByRole('columnheader', { name })).toHaveClass('gh-identifying');
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const choices = await screen.findByRole('group', { name: 'Columns shown' });
    expect(within(choices).queryByRole('checkbox', { name: 'E-mail' })).not.toBeInTheDocument();
    fireEvent.click(within(choices).getByRole('checkbox', { name: 'Work position' }));

    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Work position' })).not.toBeInTheDocument());
    expect(JSON.parse(localStorage.getItem(CLIENTS_COLUMNS_KEY)!)).toEqual(['jobTitle']);
  });

  it('filters by user type (Internal 1, External 2)', async () => {
    const fetchMock = stubApi({ [`GET ${USERS}`]: { items: [ANN], count: 1 } });
    renderSignedIn(<ClientsTable tenant={TENANT} canAutoApprove={false} onSaved={vi.fn()} />, { i18n });
    await screen.findByText('Ann Lee');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'User type' }));
    fireEvent.click(await screen.findByTitle('Internal'));

    await waitFor(() => {
      const urls = fetchMock.mock.calls.map(([input]) => new URL((input as Request).url));
      expect(urls.some((url) => url.searchParams.get('userType') === '1')).toBe(true);
    });
  });

  it('sends an e-mail invite and says so, or shows the failure', async () => {
    const onSaved = vi.fn();
    stubApi({
      [`GET ${USERS}`]: { items: [ANN, DRAFT], count: 2 },
      [`POST ${USERS}/ann/invite`]: { success: true },
      [`POST ${USERS}/dan/invite`]: jsonResponse({ code: 'errors.conflict', message: 'User pending approval.' }, 409),
    });
    renderSignedIn(<ClientsTable tenant={TENANT} canAutoApprove={false} onSaved={onSaved} />, { i18n });

    fireEvent.click(await screen.findByRole('button', { name: 'Send an e-mail invite to Ann Lee' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('Invitation mail sent successfully.'));

    fireEvent.click(screen.getByRole('button', { name: 'Send an e-mail invite to Dan Draft' }));
    expect(await screen.findByText('Failed to send invitation mail. Please try again later. User pending approval.')).toBeInTheDocument();
  });

  it('opens the wizard to create a user (New) or edit one (the permissions icon)', async () => {
    stubApi({ [`GET ${USERS}`]: { items: [ANN], count: 1 }, 'GET /api/v1/admin/clients/areas': { items: [], count: 0 } });
    renderSignedIn(<ClientsTable tenant={TENANT} canAutoApprove={false} onSaved={vi.fn()} />, { i18n });

    fireEvent.click(await screen.findByRole('button', { name: 'Edit the permissions of Ann Lee' }));
    expect(await screen.findByText('Edit Request')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'User name' })).toHaveValue('ann@acme.com');
    expect(screen.getByRole('textbox', { name: 'User name' })).toBeDisabled();
  });
});
