import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noteSignedOut } from '@gatehouse/frontend-shared';
import { navigateTo } from '../account-api';
import { json, loginAnswer, mockApi, renderAccount, type ApiMock } from '../test-utils';

vi.mock('../account-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../account-api')>()),
  navigateTo: vi.fn(),
}));

let api: ApiMock;

beforeEach(() => {
  vi.mocked(navigateTo).mockReset();
  document.cookie = 'XSRF-TOKEN=xsrf-from-cookie; path=/';
  api = mockApi();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

/** The dialog (antd renders them in body) whose text includes `text`, once it is open. */
async function dialogWith(text: string): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = screen.getAllByRole('dialog').find((element) => element.textContent?.includes(text));
    expect(dialog, `a dialog saying "${text}"`).toBeDefined();
    return dialog!;
  });
}

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

async function openLocalForm() {
  fireEvent.click(await screen.findByRole('button', { name: /Local user/ }));
  return screen.findByRole('heading', { name: 'Sign in as a local user' });
}

async function signIn(userName: string, password: string) {
  await openLocalForm();
  type(screen.getByLabelText('User'), userName);
  type(screen.getByLabelText('Password'), password);
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('/account/login: the two ways in', () => {
  it('offers the local user and the Office 365 account, the latter through externalLogin', async () => {
    renderAccount('login?interaction=uid-1');

    expect(await screen.findByRole('heading', { name: 'How do you want to sign in?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Local user/ })).toBeInTheDocument();
    const microsoft = screen.getByRole('link', { name: /Professional account \(Office 365\)/ });
    const target = new URL(microsoft.getAttribute('href') ?? '', window.location.origin);
    expect(target.pathname).toBe('/api/v1/account/externalLogin');
    expect(target.searchParams.get('provider')).toBe('mslive');
    expect(target.searchParams.get('returnUrl')).toBe('/account/login?interaction=uid-1');
  });

  it('goes straight to the form, without another method to pick, when Microsoft sign-in is off', async () => {
    api.on('GET /api/v1/config', json(200, { microsoftSignIn: false }));
    renderAccount('login');

    expect(await screen.findByRole('heading', { name: 'Sign in as a local user' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Office 365/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Select another authentication method' })).not.toBeInTheDocument();
  });

  it('shows the login screen on /account/logout too', async () => {
    renderAccount('logout');
    expect(await screen.findByRole('heading', { name: 'How do you want to sign in?' })).toBeInTheDocument();
  });

  it('comes back to the choices with "Select another authentication method"', async () => {
    renderAccount('login');
    await openLocalForm();

    fireEvent.click(screen.getByRole('button', { name: 'Select another authentication method' }));

    expect(screen.getByRole('heading', { name: 'How do you want to sign in?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Local user/ })).toHaveFocus();
  });

  it('prefills the user the application named and skips the choice', async () => {
    api.on(
      'GET /api/v1/account/interaction',
      json(200, { uid: 'uid-1', prompt: 'login', client: null, scopes: [], missingScopes: [], loginHint: 'ana@client.example' }),
    );
    renderAccount('login?interaction=uid-1');

    expect(await screen.findByLabelText('User')).toHaveValue('ana@client.example');
  });
});

describe('/account/login: the local form', () => {
  it('asks for the user name and the password before calling the server', async () => {
    renderAccount('login');
    await openLocalForm();

    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText('Enter your username')).toBeInTheDocument();
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    expect(api.posted('/api/v1/account/login')).toEqual([]);
  });

  it('does not accept a user name made of spaces', async () => {
    renderAccount('login');
    await openLocalForm();
    type(screen.getByLabelText('User'), '   ');
    type(screen.getByLabelText('Password'), 'secret');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText('Enter your username')).toBeInTheDocument();
    expect(api.posted('/api/v1/account/login')).toEqual([]);
  });

  it('signs in and follows redirectTo, sending the interaction, the XSRF header and the language', async () => {
    api.on('POST /api/v1/account/login', json(200, loginAnswer({ success: true, redirectTo: '/oidc/auth/uid-1' })));
    renderAccount('login?interaction=uid-1&ReturnUrl=%2Fhome');
    await openLocalForm();
    type(screen.getByLabelText('User'), '  ana@client.example ');
    type(screen.getByLabelText('Password'), 'Correct horse 1!');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/oidc/auth/uid-1'));
    expect(api.posted('/api/v1/account/login')).toEqual([
      { userName: 'ana@client.example', password: 'Correct horse 1!', rememberLogin: true, returnUrl: '/home', interaction: 'uid-1' },
    ]);
    const headers = new Headers(api.calls('/api/v1/account/login')[0]?.init?.headers);
    expect(headers.get('X-XSRF-TOKEN')).toBe('xsrf-from-cookie');
    expect(headers.get('Accept-Language')).toBe('en');
    expect(api.calls('/api/v1/account/login')[0]?.init?.credentials).toBe('same-origin');
  });

  it('shows the server message with the attempts left and empties the password', async () => {
    api.on(
      'POST /api/v1/account/login',
      json(
        401,
        loginAnswer({
          code: 'account.invalid_credentials',
          errors: ['Incorrect username or password. 3 attempts left'],
          attemptsLeft: 3,
        }),
      ),
    );
    renderAccount('login');
    await signIn('ana@client.example', 'wrong');

    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect username or password. 3 attempts left');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveFocus();
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('shows the end of a temporary lock in the user’s time zone, as DD-MM-YYYY hh:mm:ss', async () => {
    // UTC+5:30 all year: 10:05 UTC is 15:35 there.
    vi.stubEnv('TZ', 'Asia/Kolkata');
    api.on(
      'POST /api/v1/account/login',
      json(
        423,
        loginAnswer({
          code: 'account.locked',
          errors: ['Your account is locked after 5 failed attempts. Try again after 2026-11-22 10:05 UTC.'],
          lockedUntil: '2026-11-22T10:05:00.000Z',
        }),
      ),
    );
    renderAccount('login');
    await signIn('ana@client.example', 'wrong');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Your account is locked after 5 failed attempts\. Try again after 22-11-2026 15:35:00\.$/,
    );
  });

  it('names the threshold the server says locked the account', async () => {
    vi.stubEnv('TZ', 'UTC');
    api.on(
      'POST /api/v1/account/login',
      json(423, loginAnswer({ code: 'account.locked', errors: ['Locked (UTC).'], lockedUntil: '2026-11-22T10:05:00.000Z', lockedAfter: 3 })),
    );
    renderAccount('login');
    await signIn('ana@client.example', 'wrong');

    expect(await screen.findByRole('alert')).toHaveTextContent(/^Your account is locked after 3 failed attempts\. Try again after 22-11-2026 10:05:00\.$/);
  });

  it('shows the lock in the page’s language, and the server’s words when it gives no usable end', async () => {
    vi.stubEnv('TZ', 'America/New_York');
    api.on(
      'POST /api/v1/account/login',
      json(423, loginAnswer({ code: 'account.locked', errors: ['Votre compte est bloqué (UTC).'], lockedUntil: '2026-01-05T16:00:30.000Z' })),
    );
    renderAccount('login', { language: 'fr' });
    fireEvent.click(await screen.findByRole('button', { name: /Utilisateur local/ }));
    type(await screen.findByLabelText('Utilisateur'), 'ana@client.example');
    type(screen.getByLabelText('Mot de passe'), 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Votre compte est bloqué après 5 tentatives échouées. Réessayez après 05-01-2026 11:00:30.');

    api.on(
      'POST /api/v1/account/login',
      json(423, loginAnswer({ code: 'account.locked', errors: ['Votre compte est bloqué (UTC).'], lockedUntil: 'not a date' })),
    );
    type(screen.getByLabelText('Mot de passe'), 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Votre compte est bloqué (UTC).'));
  });

  it('shows the permanent lock and the pending approval as the server words them', async () => {
    api.on(
      'POST /api/v1/account/login',
      json(423, loginAnswer({ code: 'account.locked_permanently', errors: ['Your account is blocked. An administrator must unblock it.'] })),
    );
    renderAccount('login');
    await signIn('ana@client.example', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account is blocked. An administrator must unblock it.');

    api.on('POST /api/v1/account/login', json(403, loginAnswer({ code: 'account.pending_approval', errors: ['User pending approval.'] })));
    type(screen.getByLabelText('Password'), 'right');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('User pending approval.'));
  });

  it.each([
    ['a server crash', () => json(500, { code: 'errors.internal', message: 'An unexpected error occurred. Reference: r1', errors: [] })],
    ['an answer that is not JSON', () => new Response('<html>Bad gateway</html>', { status: 502 })],
    ['no network', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('shows the spec’s unknown-error message on %s', async (_, answer) => {
    api.on('POST /api/v1/account/login', answer);
    renderAccount('login');
    await signIn('ana@client.example', 'secret');

    expect(await screen.findByRole('alert')).toHaveTextContent('Unknow Error , please refresh the page');
  });

  it('follows redirectTo when the sign-in has expired', async () => {
    api.on(
      'POST /api/v1/account/login',
      json(400, loginAnswer({ code: 'account.interaction_expired', errors: ['Your sign-in has expired.'], redirectTo: '/' })),
    );
    renderAccount('login');
    await signIn('ana@client.example', 'secret');

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/'));
  });

  it('fetches an anti-forgery cookie first when there is none', async () => {
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    api.on('GET /api/v1/config', () => {
      document.cookie = 'XSRF-TOKEN=fresh-token; path=/';
      return json(200, { microsoftSignIn: false });
    });
    api.on('POST /api/v1/account/login', json(200, loginAnswer({ success: true, redirectTo: '/next' })));
    renderAccount('login');
    type(await screen.findByLabelText('User'), 'ana@client.example');
    type(screen.getByLabelText('Password'), 'secret');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/next'));
    expect(new Headers(api.calls('/api/v1/account/login')[0]?.init?.headers).get('X-XSRF-TOKEN')).toBe('fresh-token');
  });
});

describe('/account/login: group users', () => {
  beforeEach(() => {
    api.on(
      'POST /api/v1/account/login',
      json(
        403,
        loginAnswer({
          code: 'account.use_professional_account',
          errors: ['Group users must connect through their professional account (Office 365).'],
          externalLoginRequired: true,
        }),
      ),
    );
  });

  it('hides the password and offers the Microsoft button when the server asks for the professional account', async () => {
    renderAccount('login');
    await signIn('jo@group.example', 'irrelevant');

    expect(await screen.findByText('Group users must connect through their professional account (Office 365).')).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
    const microsoft = screen.getByRole('link', { name: 'Sign in with Microsoft' });
    expect(microsoft).toHaveAttribute('href', expect.stringContaining('/api/v1/account/externalLogin?provider=mslive'));
    expect(microsoft).toHaveFocus();
  });

  it('brings the password back when the user name changes', async () => {
    renderAccount('login');
    await signIn('jo@group.example', 'irrelevant');
    await screen.findByRole('link', { name: 'Sign in with Microsoft' });

    type(screen.getByLabelText('User'), '');
    type(screen.getByLabelText('User'), 'jo@client.example');

    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign in with Microsoft' })).not.toBeInTheDocument();
  });
});

describe('/account/login: group users recognised as the name is typed', () => {
  beforeEach(() => {
    api.on('GET /api/v1/config', json(200, { microsoftSignIn: true, groupDomains: ['group.example'], groupDomainFragment: 'grupo-es' }));
  });

  const passwordShown = () => screen.queryByLabelText('Password') !== null;

  it('hides the password and offers Microsoft for a group domain, a subdomain of one or the fragment, without asking the server', async () => {
    renderAccount('login');
    await openLocalForm();
    const user = screen.getByLabelText('User');

    type(user, 'jo@group.exampl');
    expect(passwordShown()).toBe(true);
    for (const name of ['jo@group.example', 'jo@mail.GROUP.example', 'juan@Grupo-ES.partner.example']) {
      type(user, name);
      expect(passwordShown(), name).toBe(false);
      expect(screen.getByText('Group users must connect through their professional account (Office 365).')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Sign in with Microsoft' })).toHaveAttribute('href', expect.stringContaining('/api/v1/account/externalLogin'));
      expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
    }
    expect(user, 'the focus stays where the user types').toHaveFocus();
    expect(api.posted('/api/v1/account/login')).toEqual([]);
  });

  it('brings the password back as soon as the name is no longer a group one', async () => {
    renderAccount('login');
    await openLocalForm();
    type(screen.getByLabelText('User'), 'jo@group.example');
    expect(passwordShown()).toBe(false);

    for (const name of ['jo@evilgroup.example', 'jo@group.example.net', 'jo@client.example']) {
      type(screen.getByLabelText('User'), name);
      expect(passwordShown(), name).toBe(true);
      expect(screen.queryByRole('link', { name: 'Sign in with Microsoft' })).not.toBeInTheDocument();
    }
  });

  it('moves to the Microsoft button on a submit, not before, and posts no password', async () => {
    renderAccount('login');
    await openLocalForm();
    const user = screen.getByLabelText('User');
    type(user, 'jo@group.example');
    expect(screen.getByRole('link', { name: 'Sign in with Microsoft' })).not.toHaveFocus();

    fireEvent.submit(user.closest('form')!);

    await waitFor(() => expect(screen.getByRole('link', { name: 'Sign in with Microsoft' })).toHaveFocus());
    expect(api.posted('/api/v1/account/login')).toEqual([]);
  });

  it('still follows the server when the configuration names no group domain', async () => {
    api.on('GET /api/v1/config', json(200, { microsoftSignIn: true, groupDomains: [] }));
    api.on(
      'POST /api/v1/account/login',
      json(403, loginAnswer({ code: 'account.use_professional_account', errors: ['Group users must connect through their professional account (Office 365).'], externalLoginRequired: true })),
    );
    renderAccount('login');
    await openLocalForm();
    type(screen.getByLabelText('User'), 'jo@group.example');
    expect(passwordShown()).toBe(true);
    type(screen.getByLabelText('Password'), 'irrelevant');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('link', { name: 'Sign in with Microsoft' })).toHaveFocus();
    expect(passwordShown()).toBe(false);
  });
});

describe('/account/login: forgot password', () => {
  it('warns that the e-mail is missing when the user field is blank', async () => {
    renderAccount('login');
    await openLocalForm();

    fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Email missing');
    expect(dialog).toHaveTextContent('Please enter your email before continue with the password reset.');
    expect(api.posted('/api/v1/account/resetPassword')).toEqual([]);
  });

  it('asks for confirmation, then sends the reset request and confirms it was sent', async () => {
    api.on('POST /api/v1/account/resetPassword', json(200, { success: true, errors: [], message: 'sent' }));
    renderAccount('login');
    await openLocalForm();
    type(screen.getByLabelText('User'), 'ana@client.example');

    fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    const confirm = await dialogWith('Reset your password?');
    expect(confirm).toHaveTextContent('We will send instructions to reset the password of ana@client.example');
    expect(api.posted('/api/v1/account/resetPassword')).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Send' }));

    const success = await dialogWith('Change password request Success');
    expect(success).toHaveTextContent('Please check your email inbox. We have sent you instructions to reset your password.');
    expect(api.posted('/api/v1/account/resetPassword')).toEqual([{ username: 'ana@client.example', language: 'en' }]);
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    renderAccount('login');
    await openLocalForm();
    type(screen.getByLabelText('User'), 'ana@client.example');
    fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));

    fireEvent.click(within(await dialogWith('Reset your password?')).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.posted('/api/v1/account/resetPassword')).toEqual([]);
  });

  it('lists the server’s reasons when the reset is refused, and otherwise asks to contact an administrator and to verify the e-mail', async () => {
    // The answer never depends on the account (locked, pending or unknown ones are answered as any
    // other): what refuses a request is the caller's own, such as too many requests.
    api.on(
      'POST /api/v1/account/resetPassword',
      json(429, { success: false, code: 'errors.too_many_requests', errors: ['Too many requests. Try again in 30 seconds.'] }),
    );
    renderAccount('login');
    await openLocalForm();
    type(screen.getByLabelText('User'), 'ana@client.example');
    fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    fireEvent.click(within(await dialogWith('Reset your password?')).getByRole('button', { name: 'Send' }));

    const refused = await dialogWith('Change password request fail');
    expect(refused).toHaveTextContent('Too many requests. Try again in 30 seconds.');
    expect(refused).not.toHaveTextContent('Please verify your email.');
    fireEvent.click(within(refused).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    api.on('POST /api/v1/account/resetPassword', json(500, { code: 'errors.internal', message: 'boom', errors: [] }));
    fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    fireEvent.click(within(await dialogWith('Reset your password?')).getByRole('button', { name: 'Send' }));
    const failed = await dialogWith('Change password request fail');
    expect(failed).toHaveTextContent('Please contact to an AdministratorPlease verify your email.');
  });
});

describe('/account/login: page furniture', () => {
  it('opens the French terms of use in a dialog that a click on the mask does not close', async () => {
    renderAccount('login');
    fireEvent.click(await screen.findByRole('button', { name: 'Terms of service' }));

    const dialog = await screen.findByRole('dialog', { name: 'General terms of use' });
    const terms = within(dialog).getByRole('region', { name: 'General terms of use' });
    expect(terms).toHaveAttribute('lang', 'fr');
    expect(within(terms).getByText(/31 décembre de l'année N\+3/)).toBeInTheDocument();

    // antd closes a mask-closable dialog on a click on its wrapper (the mask area around the box).
    const wrapper = dialog.closest('.ant-modal-wrap');
    expect(wrapper).not.toBeNull();
    fireEvent.mouseDown(wrapper!);
    fireEvent.mouseUp(wrapper!);
    fireEvent.click(wrapper!);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(screen.getByRole('dialog', { name: 'General terms of use' })).toBe(dialog);
    expect(wrapper).not.toHaveStyle({ display: 'none' });

    fireEvent.click(within(dialog).getByText('Close'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'General terms of use' })).not.toBeInTheDocument());
  });

  it('says "Login has successfully ended" once, on the sign-in page a sign-out of this tab ends on', async () => {
    noteSignedOut();
    const { unmount } = renderAccount('login');
    expect(await screen.findByText('Login has successfully ended')).toBeInTheDocument();
    unmount();

    renderAccount('login');
    await screen.findByRole('heading', { name: 'How do you want to sign in?' });
    expect(screen.queryByText('Login has successfully ended')).not.toBeInTheDocument();
  });

  it('shows the contact link only when a support address is configured', async () => {
    const { unmount } = renderAccount('login');
    await screen.findByRole('heading', { name: 'How do you want to sign in?' });
    expect(screen.queryByRole('link', { name: /Problems to access\? Contact Us!/ })).not.toBeInTheDocument();
    unmount();

    api.on('GET /api/v1/config', json(200, { microsoftSignIn: true, links: { support: 'https://support.example.com/help' } }));
    const reads = api.calls('/api/v1/config').length;
    renderAccount('login');
    const contact = await screen.findByRole('link', { name: /Problems to access\? Contact Us!/ });
    expect(contact).toHaveAttribute('href', 'https://support.example.com/help');
    expect(contact).toHaveAttribute('target', '_blank');
    expect(contact).toHaveAttribute('rel', 'noopener noreferrer');
    expect(api.calls('/api/v1/config'), 'one read of the configuration for the page').toHaveLength(reads + 1);
  });

  it('does not link a support address that is not a web page', async () => {
    api.on('GET /api/v1/config', json(200, { microsoftSignIn: true, links: { support: 'javascript:alert(1)' } }));
    renderAccount('login');
    await screen.findByRole('heading', { name: 'How do you want to sign in?' });
    expect(screen.queryByRole('link', { name: /Problems to access\? Contact Us!/ })).not.toBeInTheDocument();
  });

  it('switches the page to French from the language selector and keeps the choice', async () => {
    const { i18n } = renderAccount('login');
    await screen.findByRole('heading', { name: 'How do you want to sign in?' });

    const languages = screen.getByRole('group', { name: 'Language' });
    expect(within(languages).getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(within(languages).getByRole('button', { name: 'Français' }));

    expect(await screen.findByRole('heading', { name: 'Comment souhaitez-vous vous connecter ?' })).toBeInTheDocument();
    expect(i18n.language).toBe('fr');
    expect(JSON.parse(localStorage.getItem('gatehouse.preferences') ?? '{}')).toMatchObject({ currentLanguage: 'fr' });
    const langue = screen.getByRole('group', { name: 'Langue' });
    expect(within(langue).getByRole('button', { name: 'Français' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(langue).getByRole('button', { name: 'Français' })).toHaveAttribute('lang', 'fr');
  });

  it('names the browser tab after the page', async () => {
    renderAccount('login', { language: 'fr' });
    await waitFor(() => expect(document.title).toBe('Connexion · Gatehouse'));
  });
});

describe('/account/login: consent', () => {
  beforeEach(() => {
    api.on(
      'GET /api/v1/account/interaction',
      json(200, {
        uid: 'uid-2',
        prompt: 'consent',
        client: { clientId: 'timesheets', displayName: 'Timesheets', firstParty: false },
        scopes: ['openid', 'profile', 'email', 'offline_access'],
        missingScopes: ['email', 'offline_access', 'company', 'api:read'],
        loginHint: null,
      }),
    );
  });

  it('names the application and what it asks for, and allows it', async () => {
    api.on('POST /api/v1/account/consent', json(200, { success: true, redirectTo: '/oidc/auth/uid-2' }));
    renderAccount('login?interaction=uid-2');

    expect(await screen.findByRole('heading', { name: 'Authorize Timesheets' })).toBeInTheDocument();
    const scopes = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(scopes).toEqual(['Your e-mail address', 'Staying signed in while you are away', 'The company you work for now, and your roles there', 'api:read']);

    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/oidc/auth/uid-2'));
    expect(api.posted('/api/v1/account/consent')).toEqual([{ approve: true, interaction: 'uid-2' }]);
  });

  it('denies it', async () => {
    api.on('POST /api/v1/account/consent', json(200, { success: false, redirectTo: '/oidc/auth/uid-2' }));
    renderAccount('login?interaction=uid-2');

    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalled());
    expect(api.posted('/api/v1/account/consent')).toEqual([{ approve: false, interaction: 'uid-2' }]);
  });
});
