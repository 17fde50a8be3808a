import { formatDateTime } from '@gatehouse/frontend-shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dialog, renderSecurity, section, securityServer, session } from './security-test-server';

const date = (value: string) => formatDateTime(value, { notSet: '' });

const THIS_ONE = session({
  id: 's-1',
  current: true,
  browser: 'Chrome 131 on Windows',
  ip: '203.0.113.5',
  startedAt: '2026-02-03T08:00:00.000Z',
  lastSeenAt: '2026-02-03T18:00:00.000Z',
  applications: ['Portal', 'Timesheets'],
});
const LAPTOP = session({ id: 's-2', browser: 'Firefox 133 on Linux', lastSeenAt: '2026-02-02T09:15:00.000Z' });
const UNKNOWN = session({ id: 's-3', browser: null, ip: null, lastSeenAt: '2026-01-20T07:00:00.000Z' });

describe('My security: sessions and devices', () => {
  it('lists each browser with its address, start, last activity and applications, this one marked and not to sign out here', async () => {
    securityServer({}, [THIS_ONE, LAPTOP, UNKNOWN]);
    await renderSecurity();
    const sessions = await section('Sessions and devices');

    const items = within(await within(sessions).findByRole('list', { name: 'Your sessions' })).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Chrome 131 on Windows');
    expect(items[0]).toHaveTextContent('This device');
    expect(items[0]).toHaveTextContent('Address: 203.0.113.5');
    expect(items[0]).toHaveTextContent(`Signed in ${date(THIS_ONE.startedAt)}`);
    expect(items[0]).toHaveTextContent(`Last seen ${date(THIS_ONE.lastSeenAt)}`);
    expect(items[0]).toHaveTextContent('Applications: Portal, Timesheets');
    expect(within(items[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(items[1]).not.toHaveTextContent('This device');
    expect(items[1]).toHaveTextContent('No application yet');
    expect(within(items[1]!).getByRole('button', { name: `Sign out Firefox 133 on Linux, last seen ${date(LAPTOP.lastSeenAt)}` })).toBeInTheDocument();
    expect(items[2]).toHaveTextContent('Unknown browser');
    expect(items[2]).not.toHaveTextContent('Address');
  });

  it('signs one session out and lists the others again', async () => {
    const server = securityServer({}, [THIS_ONE, LAPTOP, UNKNOWN]);
    await renderSecurity();
    const sessions = await section('Sessions and devices');
    const list = await within(sessions).findByRole('list', { name: 'Your sessions' });

    fireEvent.click(within(list).getByRole('button', { name: /^Sign out Firefox 133 on Linux/ }));

    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(server.sent('DELETE /api/v1/profile/sessions/s-2')).toEqual([undefined]);
    expect(server.calls.filter((call) => call.route.startsWith('DELETE'))).toHaveLength(1);
    expect(list).not.toHaveTextContent('Firefox 133 on Linux');
    expect(await screen.findByText('The session has been signed out.')).toBeInTheDocument();
  });

  it('signs all the other sessions out after a confirmation', async () => {
    const server = securityServer({}, [THIS_ONE, LAPTOP, UNKNOWN]);
    await renderSecurity();
    const sessions = await section('Sessions and devices');
    await within(sessions).findByRole('list', { name: 'Your sessions' });

    fireEvent.click(within(sessions).getByRole('button', { name: 'Sign out all other sessions' }));
    const confirmation = await dialog('Sign out all other sessions?');
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Sign out all other sessions' }));

    await waitFor(() => expect(within(sessions).getAllByRole('listitem')).toHaveLength(1));
    expect(server.sent('POST /api/v1/profile/sessions/endOthers')).toEqual([undefined]);
    expect(await screen.findByText('2 sessions have been signed out.')).toBeInTheDocument();
    expect(within(sessions).getByRole('button', { name: 'Sign out all other sessions' })).toBeDisabled();
  });
});
