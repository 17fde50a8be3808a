import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestI18n, jsonResponse, renderSignedIn, stubApi } from '../test-utils';
import type { ClientUser } from './clients-api';
import { ClientsTable } from './ClientsTable';

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
    expect(within(ann).getAllByText('ann@acme.com', { selector: 'td' })).toHaveLength(2);
    expect(ann.querySelector('s')).toBeNull();
    expect(within(ann).queryByRole('img', { name: 'User pending approval.' })).not.toBeInTheDocument();
    expect(within(ann).getByText('Team 10')).toBeInTheDocument();
    expect(within(ann).queryByText('Team 11')).not.toBeInTheDocument();
    expect(within(ann).getByText('+2')).toBeInTheDocument();
    expect(within(ann).getByText('Applied')).toBeInTheDocument();

    const dan = screen.getByText('Dan Draft').closest('tr')!;
    expect(within(dan).getByText('dan@acme.com', { selector: 's' })).toBeInTheDocument();
    expect(within(dan).getByRole('img', { name: 'User pending approval.' })).toBeInTheDocument();
    expect(within(dan).getByText('Waiting')).toBeInTheDocument();
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
