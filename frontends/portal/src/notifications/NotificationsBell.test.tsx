import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ShellLayout } from '../shell/ShellLayout';
import { FakeAuth, createTestI18n, homeInfo, myProfile, renderSignedIn, stubApi } from '../test-utils';
import { NOTIFICATIONS_POLL_MS, NotificationsBell } from './NotificationsBell';
import { ACTIVE, fakeNotificationsApi, note, requested } from './testing';

let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
  // The drawer is fetched when first opened: loaded here, so that opening it waits on nothing.
  await import('./NotificationsDrawer');
});

afterEach(() => {
  vi.useRealTimers();
  // Back to jsdom's own (always visible).
  delete (document as { visibilityState?: DocumentVisibilityState }).visibilityState;
});

function renderBell(routes: Record<string, unknown>) {
  const fetchMock = stubApi(routes);
  return { ...renderSignedIn(<NotificationsBell />, { i18n }), fetchMock };
}

/** Shows or hides the page, as switching tabs does. */
function setPageVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

const listReads = (fetchMock: ReturnType<typeof stubApi>) => requested(fetchMock).filter((request) => request === ACTIVE).length;

describe('NotificationsBell', () => {
  it('counts the unread notifications on its badge, read with the user’s own token', async () => {
    const { routes } = fakeNotificationsApi([note({ id: 'n-1' }), note({ id: 'n-2' }), note({ id: 'n-3', readed: true })]);
    const { fetchMock } = renderBell(routes);

    const bell = await screen.findByRole('button', { name: 'Notifications: 2 unread notifications' });
    expect(bell.closest('.ant-badge')!.querySelector('.ant-badge-count')).toHaveAttribute('title', '2');
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(new URL(request.url).pathname).toBe('/api/v1/admin/notifications/active');
    expect(request.headers.get('Authorization')).toBe('DPoP access-1');
  });

  it('shows no count when everything is read, and says one in the singular', async () => {
    const first = renderBell(fakeNotificationsApi([note({ readed: true })]).routes);
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(listReads(first.fetchMock)).toBe(1));
    expect(bell.closest('.ant-badge')!.querySelector('.ant-badge-count')).toBeNull();
    first.unmount();

    renderBell(fakeNotificationsApi([note()]).routes);
    expect(await screen.findByRole('button', { name: 'Notifications: 1 unread notification' })).toBeInTheDocument();
  });

  it('reads the list again every 30 seconds while the page is shown, not while it is hidden, and at once when it is shown again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { routes, state } = fakeNotificationsApi([]);
    const { fetchMock } = renderBell(routes);
    await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(listReads(fetchMock)).toBe(1));

    state.items = [note({ id: 'arrived', description: 'Your import has finished' })];
    await act(() => vi.advanceTimersByTimeAsync(NOTIFICATIONS_POLL_MS));
    expect(await screen.findByRole('button', { name: 'Notifications: 1 unread notification' })).toBeInTheDocument();
    expect(listReads(fetchMock)).toBe(2);

    setPageVisibility('hidden');
    await act(() => vi.advanceTimersByTimeAsync(3 * NOTIFICATIONS_POLL_MS));
    expect(listReads(fetchMock)).toBe(2);

    state.items = [...state.items, note({ id: 'later' })];
    setPageVisibility('visible');
    expect(await screen.findByRole('button', { name: 'Notifications: 2 unread notifications' })).toBeInTheDocument();
    expect(listReads(fetchMock)).toBe(3);
  });

  it('opens the notifications drawer, and closes it', async () => {
    renderBell(fakeNotificationsApi([note({ description: 'Your import has finished' })]).routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications: 1 unread notification' }));

    const drawer = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(await within(drawer).findByText('Your import has finished')).toBeInTheDocument();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Close the notifications' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument());
  });
});

describe('the portal’s top bar', () => {
  function renderShell(auth?: FakeAuth) {
    const { routes } = fakeNotificationsApi([note()]);
    const fetchMock = stubApi({
      ...routes,
      'GET /api/v1/applications/status/portal': new Response('Running'),
      'GET /api/v1/admin/applications/homeInfo': homeInfo([]),
      // A user holding no role at all: the bell is everyone's.
      'GET /api/v1/profile': myProfile({ roles: [] }),
    });
    renderSignedIn(
      <Routes>
        <Route element={<ShellLayout />}>
          <Route index element={<p>Home content</p>} />
        </Route>
      </Routes>,
      { i18n, auth },
    );
    return fetchMock;
  }

  it('shows the bell to every signed-in user, next to My Apps', async () => {
    renderShell();
    const bell = await screen.findByRole('button', { name: 'Notifications: 1 unread notification' });
    const bar = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(bar).toContainElement(bell);
    expect(within(bar).getByRole('button', { name: 'My Apps' })).toBeInTheDocument();
  });

  it('keeps the bell in the bar on a narrow screen, outside the menu', async () => {
    window.innerWidth = 600;
    renderShell();
    expect(await screen.findByRole('button', { name: 'Notifications: 1 unread notification' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open the menu' })).toBeInTheDocument();
  });

  it('shows no bell and asks for nothing when nobody is signed in', async () => {
    const fetchMock = renderShell(new FakeAuth(null));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).not.toBeInTheDocument();
    expect(requested(fetchMock)).not.toContain(ACTIVE);
  });
});
