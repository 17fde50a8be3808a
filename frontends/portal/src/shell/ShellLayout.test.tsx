import { act, fireEvent, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeAuth, createTestI18n, homeInfo, jsonResponse, makeUser, myProfile, renderSignedIn, stubApi, testConfig } from '../test-utils';
import { ShellLayout } from './ShellLayout';

let i18n: I18n;

beforeEach(async () => {
  i18n = await createTestI18n('en');
});

afterEach(() => {
  vi.unstubAllEnvs();
});

function renderShell(options: { auth?: FakeAuth; status?: string; links?: typeof testConfig.links; route?: string } = {}) {
  const fetchMock = stubApi({
    'GET /api/v1/applications/status/portal': new Response(options.status ?? 'Running'),
    'GET /api/v1/admin/applications/homeInfo': homeInfo([]),
    'GET /api/v1/profile/resetPassword/jane%40example.com': jsonResponse({ success: true, message: 'Sent' }),
  });
  const result = renderSignedIn(
    <Routes>
      <Route element={<ShellLayout />}>
        <Route index element={<p>Home content</p>} />
        <Route path="profile" element={<p>Profile content</p>} />
      </Route>
    </Routes>,
    { i18n, auth: options.auth, route: options.route, config: { ...testConfig, links: options.links ?? testConfig.links } },
  );
  return { ...result, fetchMock };
}

/** Opens the profile pop-up and picks 'Change password'; resolves with the confirmation dialog. */
async function openChangePassword(): Promise<HTMLElement> {
  fireEvent.click(screen.getByRole('button', { name: 'Account of Jane Doe' }));
  fireEvent.click(within(await screen.findByRole('dialog', { name: 'Jane Doe' })).getByRole('button', { name: 'Change password' }));
  return screen.findByRole('dialog', { name: 'Change your password?' });
}

function resetRequests(fetchMock: ReturnType<typeof stubApi>): Request[] {
  return fetchMock.mock.calls.map(([input]) => input as Request).filter((request) => request.url.includes('resetPassword'));
}

describe('ShellLayout top bar', () => {
  it('links the logo home and shows the tagline, My Apps and the user', async () => {
    renderShell();

    expect(screen.getByRole('link', { name: 'Gatehouse home' })).toHaveAttribute('href', '/');
    expect(screen.getByText('Identity and access portal')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'My Apps' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Account of Jane Doe' })).toBeInTheDocument();
    expect(screen.getByText('Home content')).toBeInTheDocument();
  });

  it('opens the Helpdesk in a new tab when configured, and hides it otherwise', () => {
    const first = renderShell({ links: { helpdesk: 'https://help.example.com/' } });
    const helpdesk = screen.getByRole('link', { name: /Helpdesk/ });
    expect(helpdesk).toHaveAttribute('href', 'https://help.example.com/');
    expect(helpdesk).toHaveAttribute('target', '_blank');
    first.unmount();

    renderShell();
    expect(screen.queryByRole('link', { name: /Helpdesk/ })).not.toBeInTheDocument();
  });

  it('shows a Login button and sends to the sign-in when nobody is signed in', async () => {
    const auth = new FakeAuth(null);
    renderShell({ auth, route: '/profile' });

    expect(within(screen.getByRole('main')).getByRole('status')).toHaveTextContent('Taking you to the sign-in page…');
    expect(auth.signIn).toHaveBeenCalledWith('/profile');
    expect(screen.queryByText('Profile content')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(auth.signIn).toHaveBeenCalledTimes(2);
  });

  it('waits for the user after the session was closed in another tab', () => {
    const auth = new FakeAuth(null);
    auth.ended = 'closed-elsewhere';
    renderShell({ auth });

    const main = screen.getByRole('main');
    expect(within(main).getByText('Your session was closed in another tab.')).toBeInTheDocument();
    expect(auth.signIn).not.toHaveBeenCalled();

    fireEvent.click(within(main).getByRole('button', { name: 'Login' }));
    expect(auth.signIn).toHaveBeenCalledWith('/');
  });

  it('does not sign in again while signing out', () => {
    const auth = new FakeAuth(null);
    auth.ended = 'signing-out';
    renderShell({ auth });

    expect(within(screen.getByRole('main')).getByRole('status')).toHaveTextContent('Signing you out…');
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it('collapses behind a hamburger at 768 px or less', async () => {
    window.innerWidth = 768;
    const { auth } = renderShell();

    expect(screen.queryByRole('button', { name: 'My Apps' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Open the menu' }));

    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    expect(within(menu).getByText('Jane Doe')).toBeInTheDocument();
    fireEvent.click(within(menu).getByRole('button', { name: 'Close session' }));
    expect(auth.signOut).toHaveBeenCalled();
  });

  it('opens the profile pop-up with the greeting and its actions', async () => {
    const { auth } = renderShell();

    fireEvent.click(screen.getByRole('button', { name: 'Account of Jane Doe' }));
    const popup = await screen.findByRole('dialog', { name: 'Jane Doe' });
    expect(within(popup).getByText('Hello, Jane!')).toBeInTheDocument();
    expect(within(popup).getByText('JD')).toBeInTheDocument();
    expect(within(popup).getByText('jane@example.com')).toBeInTheDocument();

    fireEvent.click(within(popup).getByRole('button', { name: 'Your Profile' }));
    expect(await screen.findByText('Profile content')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Account of Jane Doe' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Jane Doe' })).getByRole('button', { name: 'Close session' }));
    expect(auth.signOut).toHaveBeenCalled();
  });

  it('asks before changing the password, saying a link will be e-mailed to the user’s address', async () => {
    const { fetchMock } = renderShell();

    const dialog = await openChangePassword();

    expect(dialog).toHaveTextContent('A link to set a new password will be e-mailed to jane@example.com.');
    expect(within(dialog).getByRole('button', { name: 'Ok' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(resetRequests(fetchMock)).toHaveLength(0);
  });

  it('sends nothing on Cancel', async () => {
    const { fetchMock } = renderShell();

    fireEvent.click(within(await openChangePassword()).getByRole('button', { name: 'Cancel' }));

    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change your password?' })).not.toBeInTheDocument());
    await act(async () => undefined);
    expect(resetRequests(fetchMock)).toHaveLength(0);
    expect(screen.queryByRole('dialog', { name: 'Change password request Success' })).not.toBeInTheDocument();
  });

  it('mails a reset link on OK, then says to check the inbox', async () => {
    const { fetchMock } = renderShell();

    fireEvent.click(within(await openChangePassword()).getByRole('button', { name: 'Ok' }));

    const dialog = await screen.findByRole('dialog', { name: 'Change password request Success' });
    expect(dialog).toHaveTextContent('Please check your email inbox. We have sent you instructions to reset your password.');
    const requests = resetRequests(fetchMock);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.get('Authorization')).toBe('DPoP access-1');
  });

  it('asks to contact an administrator when the reset link cannot be sent', async () => {
    const auth = new FakeAuth(makeUser({ email: 'locked@example.com' }));
    renderShell({ auth });

    const confirmation = await openChangePassword();
    expect(confirmation).toHaveTextContent('A link to set a new password will be e-mailed to locked@example.com.');
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Ok' }));

    const dialog = await screen.findByRole('dialog', { name: 'Change password request fail' });
    expect(dialog).toHaveTextContent('Please contact to an Administrator');
  });

  it('switches the language from the language menu', async () => {
    renderShell();

    fireEvent.click(screen.getByRole('button', { name: 'Language: English' }));
    fireEvent.click(await screen.findByText('Français'));

    expect(await screen.findByRole('button', { name: 'Mes applications' })).toBeInTheDocument();
    expect(i18n.language).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
  });

  it('opens My Apps', async () => {
    renderShell();

    fireEvent.click(screen.getByRole('button', { name: 'My Apps' }));

    expect(await screen.findByRole('dialog', { name: 'My Apps' })).toBeInTheDocument();
  });
});

describe('ShellLayout footer and notices', () => {
  it('links the data-subject rights page and the configured terms and cookie policy', () => {
    renderShell({ links: { termsOfUse: 'https://example.com/terms', cookiePolicy: '/cookies' } });

    const footer = screen.getByRole('navigation', { name: 'Site information' });
    expect(within(footer).getByRole('link', { name: /Terms of use/ })).toHaveAttribute('target', '_blank');
    expect(within(footer).getByRole('link', { name: 'Your data protection rights' })).toHaveAttribute('href', '/rights');
    expect(within(footer).getByRole('link', { name: 'Cookie policy' })).toHaveAttribute('href', '/cookies');
  });

  it('warns of maintenance in a dismissible 1000 px dialog', async () => {
    renderShell({ status: 'Maintenance' });

    const dialog = await screen.findByRole('dialog', { name: 'Maintenance in progress' });
    expect(dialog).toHaveTextContent('Maintenance work is in progress.');
    expect(document.querySelector('.ant-modal')).toHaveStyle({ width: '1000px' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Ok' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Maintenance in progress' })).not.toBeInTheDocument());
  });

  it('says nothing while the application is running', async () => {
    const { fetchMock } = renderShell({ status: 'Running' });

    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([input]) => (input as Request).url.endsWith('/status/portal'))).toBe(true));
    await act(async () => undefined);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('ShellLayout and the stored profile', () => {
  it('shows the names and the picture the user saved since the token was issued', async () => {
    stubApi({
      'GET /api/v1/applications/status/portal': new Response('Running'),
      'GET /api/v1/admin/applications/homeInfo': homeInfo([]),
      'GET /api/v1/profile': myProfile({ firstName: 'Johanna', lastName: 'Dorn', avatarUrl: '/api/v1/avatar/abc?size=180&v=2' }),
    });
    renderSignedIn(
      <Routes>
        <Route element={<ShellLayout />}>
          <Route index element={<p>Home content</p>} />
        </Route>
      </Routes>,
      { i18n },
    );

    fireEvent.click(await screen.findByRole('button', { name: 'Account of Johanna Dorn' }));
    const popup = await screen.findByRole('dialog', { name: 'Johanna Dorn' });
    expect(within(popup).getByText('Hello, Johanna!')).toBeInTheDocument();
    expect(popup.querySelector('img')).toHaveAttribute('src', '/api/v1/avatar/abc?size=180&v=2');
  });
});
