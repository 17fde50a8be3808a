import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../../test-utils';
import type { UserFactors } from '../api/users-api';
import { useFeedback } from '../components/feedback';
import { bodiesTo, dialogWith, localDateTime, PAGE_TEST_TIMEOUT, sentTo } from '../test-helpers';
import { UserFactorsCard } from './UserFactorsCard';

const FACTORS = 'GET /api/v1/admin/users/u1/factors';
const RESET = 'POST /api/v1/admin/users/u1/factors/reset';

const held: UserFactors = {
  passkeys: [
    {
      id: 'p1',
      name: 'YubiKey 5',
      createdAt: '2026-01-05T09:00:00.000Z',
      lastUsedAt: '2026-02-01T10:30:00.000Z',
      lastUsedDevice: 'Firefox on Linux',
      deviceHint: 'Chrome on Windows',
      backedUp: false,
      deviceType: 'singleDevice',
    },
    { id: 'p2', name: 'iPhone', createdAt: '2026-01-06T09:00:00.000Z', lastUsedAt: null, lastUsedDevice: null, deviceHint: null, backedUp: true, deviceType: 'multiDevice' },
  ],
  totp: { enrolled: false, enrolledAt: null },
  recoveryCodes: { remaining: 8, generatedAt: '2026-01-07T09:00:00.000Z' },
  emailCode: true,
  mayReset: true,
};

/** The card as the user page shows it, with the page's confirmations and toasts. */
function Harness() {
  const feedback = useFeedback();
  return (
    <>
      <UserFactorsCard user={{ id: 'u1', userName: 'ana@example.com' }} feedback={feedback} />
      {feedback.holder}
    </>
  );
}

const renderCard = (factors: UserFactors | Response = held, api: ApiRoutes = {}) => renderPage(<Harness />, { api: { [FACTORS]: factors, ...api } });

/** The card, once its factors are in. */
async function card(): Promise<HTMLElement> {
  const title = await screen.findByText('Sign-in factors');
  const element = title.closest<HTMLElement>('.ant-card')!;
  await within(element).findByText('Passkeys');
  return element;
}

beforeEach(() => sessionStorage.clear());

describe('UserFactorsCard', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('lists the factors by name, kind and date', async () => {
    await renderCard();
    const view = within(await card());

    expect(view.getByText('YubiKey 5')).toBeInTheDocument();
    expect(view.getByText('On one device')).toBeInTheDocument();
    expect(view.getByText(`Added on ${localDateTime('2026-01-05T09:00:00.000Z')} from Chrome on Windows`)).toBeInTheDocument();
    expect(view.getByText(`Last used on ${localDateTime('2026-02-01T10:30:00.000Z')} from Firefox on Linux`)).toBeInTheDocument();
    expect(view.getByText('iPhone')).toBeInTheDocument();
    expect(view.getByText('Synced')).toBeInTheDocument();
    expect(view.getByText(`Added on ${localDateTime('2026-01-06T09:00:00.000Z')}`)).toBeInTheDocument();
    expect(view.getByText('Never used')).toBeInTheDocument();
    expect(view.getByText('Not set up')).toBeInTheDocument();
    expect(view.getByText(`8 left, made on ${localDateTime('2026-01-07T09:00:00.000Z')}`)).toBeInTheDocument();
    expect(view.getByText('On')).toBeInTheDocument();
    expect(view.getByRole('button', { name: 'Reset…' })).toBeEnabled();
  });

  it('offers no reset when the server says the caller may not (their own account, or one that outranks them)', async () => {
    await renderCard({ ...held, mayReset: false });
    const view = within(await card());

    expect(view.getByText('YubiKey 5')).toBeInTheDocument();
    expect(view.queryByRole('button', { name: 'Reset…' })).not.toBeInTheDocument();
  });

  it('keeps the reset disabled while the user holds no factor to reset', async () => {
    await renderCard({ passkeys: [], totp: { enrolled: false, enrolledAt: null }, recoveryCodes: { remaining: 0, generatedAt: null }, emailCode: false, mayReset: true });
    const view = within(await card());

    expect(view.getByText('No passkey')).toBeInTheDocument();
    expect(view.getByText('None')).toBeInTheDocument();
    expect(view.getByText('Off')).toBeInTheDocument();
    expect(view.getByRole('button', { name: 'Reset…' })).toBeDisabled();
  });

  it('removes the kinds ticked among those the user holds, once confirmed, and says what went', async () => {
    const { fetchMock } = await renderCard(held, { [RESET]: { removed: ['passkeys'] } });
    fireEvent.click(within(await card()).getByRole('button', { name: 'Reset…' }));

    const dialog = await dialogWith('Reset the sign-in factors of ana@example.com');
    const view = within(dialog);
    expect(view.getByRole('checkbox', { name: 'Passkeys (2)' })).not.toBeChecked();
    expect(view.getByRole('checkbox', { name: 'Recovery codes' })).not.toBeChecked();
    expect(view.queryByRole('checkbox', { name: 'Authenticator app' }), 'not held: not offered').not.toBeInTheDocument();
    const remove = view.getByRole('button', { name: 'Remove' });
    expect(remove).toBeDisabled();

    fireEvent.click(view.getByRole('checkbox', { name: 'Passkeys (2)' }));
    fireEvent.click(remove);

    expect(await screen.findByText('Removed from ana@example.com: passkeys')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, RESET)).toEqual([{ kinds: ['passkeys'] }]);
    // The card asks for the factors again: the server's own view of what is left.
    await waitFor(() => expect(sentTo(fetchMock, FACTORS)).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('sends nothing when the dialog is cancelled', async () => {
    const { fetchMock } = await renderCard();
    fireEvent.click(within(await card()).getByRole('button', { name: 'Reset…' }));
    const dialog = await dialogWith('Reset the sign-in factors of ana@example.com');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Recovery codes' }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sentTo(fetchMock, RESET)).toHaveLength(0);
  });

  it('shows the server’s refusal in the dialog, which stays open', async () => {
    await renderCard(held, { [RESET]: jsonResponse({ code: 'users.manage_god_only', message: 'Only God can manage the account of a God user' }, 403) });
    fireEvent.click(within(await card()).getByRole('button', { name: 'Reset…' }));
    const dialog = await dialogWith('Reset the sign-in factors of ana@example.com');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Passkeys (2)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Only God can manage the account of a God user');
    expect(screen.queryByText(/Removed from/)).not.toBeInTheDocument();
  });

  it('says so when the user no longer held what was ticked', async () => {
    await renderCard(held, { [RESET]: { removed: [] } });
    fireEvent.click(within(await card()).getByRole('button', { name: 'Reset…' }));
    const dialog = await dialogWith('Reset the sign-in factors of ana@example.com');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Recovery codes' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(await dialogWith('Nothing was removed: ana@example.com no longer held these factors.')).toBeInTheDocument();
  });

  it('shows why the factors could not be read', async () => {
    await renderCard(jsonResponse({ code: 'errors.not_found', message: 'Not found' }, 404));
    const title = await screen.findByText('Sign-in factors');
    const alert = await within(title.closest<HTMLElement>('.ant-card')!).findByRole('alert');
    expect(alert).toHaveTextContent('An error occurred');
  });
});
