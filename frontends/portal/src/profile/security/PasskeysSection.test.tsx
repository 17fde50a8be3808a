import { formatDateTime } from '@gatehouse/frontend-shared';
import { browserSupportsWebAuthn, startRegistration, type RegistrationResponseJSON } from '@simplewebauthn/browser';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test-utils';
import { CREATION_OPTIONS, dialog, NEW_CREDENTIAL, passkey, renderSecurity, section, securityServer } from './security-test-server';

vi.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: vi.fn(),
  startRegistration: vi.fn(),
  WebAuthnAbortService: { cancelCeremony: vi.fn() },
}));

beforeEach(() => {
  vi.mocked(browserSupportsWebAuthn).mockReset().mockReturnValue(true);
  vi.mocked(startRegistration).mockReset().mockResolvedValue(NEW_CREDENTIAL as RegistrationResponseJSON);
});

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });
const date = (value: string) => formatDateTime(value, { notSet: '' });

const LAPTOP = passkey({
  id: 'pk-1',
  name: 'Work laptop',
  createdAt: '2026-01-02T08:00:00.000Z',
  deviceHint: 'Edge on Windows',
  lastUsedAt: '2026-02-03T09:30:00.000Z',
  lastUsedDevice: 'Edge on Windows',
});
const PHONE = passkey({ id: 'pk-2', name: 'iPhone', createdAt: '2026-01-05T10:00:00.000Z', backedUp: true, deviceType: 'multiDevice' });

describe('My security: passkeys', () => {
  it('lists each passkey with its name, when it was added and last used and where, and a synced badge', async () => {
    securityServer({ passkeys: [LAPTOP, PHONE] });
    await renderSecurity();
    const passkeys = await section('Passkeys');

    const items = within(within(passkeys).getByRole('list', { name: 'Your passkeys' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Work laptop');
    expect(items[0]).toHaveTextContent(`Added ${date(LAPTOP.createdAt)} on Edge on Windows`);
    expect(items[0]).toHaveTextContent(`Last used ${date(LAPTOP.lastUsedAt!)} on Edge on Windows`);
    expect(items[0]).not.toHaveTextContent('Synced');
    expect(items[1]).toHaveTextContent('iPhone');
    expect(items[1]).toHaveTextContent('Synced');
    expect(items[1]).toHaveTextContent(`Added ${date(PHONE.createdAt)}`);
    expect(items[1]).toHaveTextContent('Never used');
    expect(within(items[1]!).getByRole('button', { name: 'Rename iPhone' })).toBeInTheDocument();
    expect(within(items[1]!).getByRole('button', { name: 'Remove iPhone' })).toBeInTheDocument();
  });

  it('adds a passkey: the browser creates it for the server’s options, then the server’s name is offered to change', async () => {
    const server = securityServer({ passkeys: [LAPTOP] });
    await renderSecurity();
    const passkeys = await section('Passkeys');

    fireEvent.click(within(passkeys).getByRole('button', { name: 'Add a passkey' }));

    const naming = await dialog('Name your new passkey');
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: CREATION_OPTIONS });
    expect(server.sent('POST /api/v1/profile/passkeys')).toEqual([{ response: NEW_CREDENTIAL }]);
    const name = within(naming).getByLabelText('Name');
    expect(name).toHaveValue('Chrome on Linux');
    type(name, '  Home desktop ');
    fireEvent.click(within(naming).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(server.sent('PATCH /api/v1/profile/passkeys/pk-new')).toEqual([{ name: 'Home desktop' }]));
    await waitFor(() => expect(within(passkeys).getByRole('button', { name: 'Rename Home desktop' })).toBeInTheDocument());
  });

  it('keeps the server’s name without another call', async () => {
    const server = securityServer();
    await renderSecurity();
    const passkeys = await section('Passkeys');
    expect(within(passkeys).getByText('You have no passkey yet.')).toBeInTheDocument();

    fireEvent.click(within(passkeys).getByRole('button', { name: 'Add a passkey' }));
    fireEvent.click(within(await dialog('Name your new passkey')).getByRole('button', { name: 'Keep this name' }));

    await waitFor(() => expect(within(passkeys).getByRole('button', { name: 'Rename Chrome on Linux' })).toBeInTheDocument());
    expect(server.calls.filter((call) => call.route.startsWith('PATCH'))).toEqual([]);
  });

  it('says so, without alarm, when the browser’s prompt is closed, and adds nothing', async () => {
    vi.mocked(startRegistration).mockRejectedValueOnce(Object.assign(new Error('closed'), { name: 'NotAllowedError' }));
    const server = securityServer();
    await renderSecurity();
    const passkeys = await section('Passkeys');

    fireEvent.click(within(passkeys).getByRole('button', { name: 'Add a passkey' }));

    expect(await within(passkeys).findByText('No passkey was added.')).toBeInTheDocument();
    expect(passkeys.querySelector('.ant-alert-error')).toBeNull();
    expect(server.sent('POST /api/v1/profile/passkeys')).toEqual([]);
  });

  it('renames a passkey from its dialog, refusing an empty name', async () => {
    const server = securityServer({ passkeys: [LAPTOP, PHONE] });
    await renderSecurity();
    const passkeys = await section('Passkeys');

    fireEvent.click(within(passkeys).getByRole('button', { name: 'Rename iPhone' }));
    const renaming = await dialog('Rename the passkey');
    const name = within(renaming).getByLabelText('Name');
    expect(name).toHaveValue('iPhone');
    type(name, '   ');
    fireEvent.click(within(renaming).getByRole('button', { name: 'Save' }));
    expect(await within(renaming).findByText('Enter a name')).toBeInTheDocument();

    type(name, 'My iPhone');
    fireEvent.click(within(renaming).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(within(passkeys).getByRole('button', { name: 'Rename My iPhone' })).toBeInTheDocument());
    expect(server.sent('PATCH /api/v1/profile/passkeys/pk-2')).toEqual([{ name: 'My iPhone' }]);
    expect(server.sent('PATCH /api/v1/profile/passkeys/pk-1')).toEqual([]);
  });

  it('removes a passkey once the removal is confirmed, and not when it is cancelled', async () => {
    const server = securityServer({ passkeys: [LAPTOP, PHONE] });
    await renderSecurity();
    const passkeys = await section('Passkeys');

    fireEvent.click(within(passkeys).getByRole('button', { name: 'Remove Work laptop' }));
    const cancelled = await dialog('Remove the passkey “Work laptop”?');
    expect(cancelled).toHaveTextContent('You will no longer be able to sign in with it.');
    fireEvent.click(within(cancelled).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(cancelled).not.toBeInTheDocument());
    expect(server.calls.filter((call) => call.route.startsWith('DELETE'))).toEqual([]);

    fireEvent.click(within(passkeys).getByRole('button', { name: 'Remove Work laptop' }));
    fireEvent.click(within(await dialog('Remove the passkey “Work laptop”?')).getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(within(passkeys).queryByRole('button', { name: 'Remove Work laptop' })).not.toBeInTheDocument());
    expect(server.sent('DELETE /api/v1/profile/passkeys/pk-1')).toEqual([undefined]);
    expect(within(passkeys).getByRole('button', { name: 'Remove iPhone' })).toBeInTheDocument();
  });

  it('shows the server’s reason when a removal is refused', async () => {
    const server = securityServer({ passkeys: [LAPTOP], phishingResistantRequired: true });
    server.once(
      'DELETE /api/v1/profile/passkeys/pk-1',
      jsonResponse({ code: 'account.last_passkey', message: 'Your company requires a passkey: add another one before removing this one.', errors: [] }, 409),
    );
    await renderSecurity();
    const passkeys = await section('Passkeys');

    fireEvent.click(within(passkeys).getByRole('button', { name: 'Remove Work laptop' }));
    fireEvent.click(within(await dialog('Remove the passkey “Work laptop”?')).getByRole('button', { name: 'Remove' }));

    const alert = await within(passkeys).findByRole('alert');
    expect(alert).toHaveTextContent('The passkey “Work laptop” could not be removed.');
    expect(alert).toHaveTextContent('Your company requires a passkey: add another one before removing this one.');
    expect(within(passkeys).getByRole('button', { name: 'Remove Work laptop' })).toBeInTheDocument();
  });

  it('offers no passkey to an account that signs in with Microsoft', async () => {
    securityServer({ passkeysOffered: false });
    await renderSecurity();
    const passkeys = await section('Passkeys');

    expect(passkeys).toHaveTextContent('Your account signs in with Microsoft');
    expect(within(passkeys).queryByRole('button')).not.toBeInTheDocument();
  });

  it('cannot add a passkey in a browser without WebAuthn', async () => {
    vi.mocked(browserSupportsWebAuthn).mockReturnValue(false);
    securityServer();
    await renderSecurity();
    const passkeys = await section('Passkeys');

    expect(within(passkeys).getByText('This browser cannot create passkeys. Use another browser or device.')).toBeInTheDocument();
    expect(within(passkeys).getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
  });
});
