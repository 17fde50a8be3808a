import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { isRecent, needsReauthentication } from './recent-sign-in';
import { dialog, PASSWORD, reauthenticationRequired, renderSecurity, section, securityServer, session } from './security-test-server';

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

const OTHER = session({ id: 's-2', browser: 'Firefox 133 on Linux' });
const SIGN_OUT = /^Sign out Firefox 133 on Linux/;

async function sessionsList() {
  const sessions = await section('Sessions and devices');
  return within(sessions).findByRole('list', { name: 'Your sessions' });
}

describe('My security: confirming the password', () => {
  it('asks for the password first when the sign-in is too old, then makes the change', async () => {
    const server = securityServer({ recentUntil: null }, [OTHER]);
    await renderSecurity();
    const list = await sessionsList();

    fireEvent.click(within(list).getByRole('button', { name: SIGN_OUT }));

    const confirm = await dialog('Confirm your password');
    expect(server.calls.filter((call) => call.route.startsWith('DELETE'))).toEqual([]);
    type(within(confirm).getByLabelText('Password'), 'wrong');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    const refused = await within(confirm).findByRole('alert');
    expect(refused).toHaveTextContent('Your password could not be confirmed.');
    expect(refused).toHaveTextContent('The password is not correct.');
    expect(within(confirm).getByLabelText('Password')).toHaveValue('');
    expect(server.calls.filter((call) => call.route.startsWith('DELETE'))).toEqual([]);

    type(within(confirm).getByLabelText('Password'), PASSWORD);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(server.sent('DELETE /api/v1/profile/sessions/s-2')).toEqual([undefined]));
    expect(server.sent('POST /api/v1/profile/reauthenticate')).toEqual([{ password: 'wrong' }, { password: PASSWORD }]);
    await waitFor(() => expect(within(list).queryByRole('listitem')).not.toBeInTheDocument());
  });

  it('retries a change the server refused for an old sign-in once the password is confirmed, and asks no more while it is recent', async () => {
    const server = securityServer({}, [OTHER, session({ id: 's-3', browser: 'Safari 18 on macOS' })]);
    server.once('DELETE /api/v1/profile/sessions/s-2', reauthenticationRequired());
    await renderSecurity();
    const list = await sessionsList();

    fireEvent.click(within(list).getByRole('button', { name: SIGN_OUT }));
    const confirm = await dialog('Confirm your password');
    type(within(confirm).getByLabelText('Password'), PASSWORD);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(server.sent('DELETE /api/v1/profile/sessions/s-2')).toHaveLength(2));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));

    fireEvent.click(within(list).getByRole('button', { name: /^Sign out Safari 18 on macOS/ }));
    await waitFor(() => expect(server.sent('DELETE /api/v1/profile/sessions/s-3')).toHaveLength(1));
    expect(server.sent('POST /api/v1/profile/reauthenticate')).toHaveLength(1);
  });

  it('makes no change when the dialog is closed', async () => {
    const server = securityServer({}, [OTHER]);
    server.once('DELETE /api/v1/profile/sessions/s-2', reauthenticationRequired());
    await renderSecurity();
    const list = await sessionsList();

    fireEvent.click(within(list).getByRole('button', { name: SIGN_OUT }));
    const confirm = await dialog('Confirm your password');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(confirm).not.toBeVisible());
    expect(server.sent('DELETE /api/v1/profile/sessions/s-2')).toHaveLength(1);
    expect(server.sent('POST /api/v1/profile/reauthenticate')).toEqual([]);
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect((await section('Sessions and devices')).querySelector('.ant-alert-error')).toBeNull();
  });

  it('reads the refusal and the deadline', () => {
    expect(needsReauthentication({ status: 403, data: { code: 'account.reauthentication_required', message: 'x', errors: [] } })).toBe(true);
    expect(needsReauthentication({ status: 403, data: { code: 'errors.forbidden', message: 'x', errors: [] } })).toBe(false);
    expect(needsReauthentication({ status: 401, data: { code: 'account.reauthentication_required' } })).toBe(false);
    expect(needsReauthentication(undefined)).toBe(false);
    const now = Date.parse('2026-01-01T10:00:00Z');
    expect(isRecent('2026-01-01T10:05:00Z', now)).toBe(true);
    expect(isRecent('2026-01-01T09:59:59Z', now)).toBe(false);
    expect(isRecent(null, now)).toBe(false);
    expect(isRecent('not a date', now)).toBe(false);
  });
});
