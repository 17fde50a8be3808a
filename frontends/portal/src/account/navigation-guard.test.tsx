import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigateTo, sameOriginPath } from './account-api';
import { SUCCESS_REDIRECT_MS } from './change-password/ChangePasswordPage';
import { interpretLogin } from './login/login-outcome';
import { json, loginAnswer, mockApi, renderAccount, type ApiMock } from './test-utils';

vi.mock('./account-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./account-api')>()),
  navigateTo: vi.fn(),
}));

/** Addresses a tampered link or answer could carry; a browser reads each as another site. */
const HOSTILE = [
  '/\t/evil.example',
  '/\r\n/evil.example',
  '/\n/evil.example',
  '\\\\evil.example',
  '/\\evil.example',
  'https://evil.example/',
  '//evil.example',
  '/..//evil.example',
  'javascript:alert(1)',
];

let api: ApiMock;

beforeEach(() => {
  vi.mocked(navigateTo).mockReset();
  document.cookie = 'XSRF-TOKEN=xsrf; path=/';
  api = mockApi();
});

afterEach(() => {
  vi.useRealTimers();
});

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

describe('security: the sign-in pages never send the browser off this site', () => {
  it.each(HOSTILE)('refuses %j as a return address', (value) => {
    expect(sameOriginPath(value)).toBeUndefined();
  });

  it('keeps addresses of this site, as paths', () => {
    expect(sameOriginPath('/oidc/auth/uid-1')).toBe('/oidc/auth/uid-1');
    expect(sameOriginPath(`${window.location.origin}/oidc/auth/uid-1?x=1#y`)).toBe('/oidc/auth/uid-1?x=1#y');
    // Percent-encoded, a tab is part of a path here.
    expect(sameOriginPath('/%09/evil.example')).toBe('/%09/evil.example');
  });

  it.each(HOSTILE)('follows a login answer naming %j to the fallback instead', (redirectTo) => {
    expect(interpretLogin({ status: 200, ok: true, body: loginAnswer({ success: true, redirectTo }) }, '/home')).toEqual({ kind: 'redirect', url: '/home' });
    const expired = { status: 400, ok: false, body: loginAnswer({ code: 'account.interaction_expired', redirectTo }) };
    expect(interpretLogin(expired, '/home')).toEqual({ kind: 'redirect', url: '/home' });
  });

  it.each(HOSTILE)('stays on this site when an expired sign-in answers redirectTo %j, whatever returnUrl says', async (redirectTo) => {
    api.on('GET /api/v1/config', json(200, { microsoftSignIn: false }));
    api.on('POST /api/v1/account/login', json(400, loginAnswer({ code: 'account.interaction_expired', errors: ['Your sign-in has expired.'], redirectTo })));
    renderAccount(`login?returnUrl=${encodeURIComponent(redirectTo)}`);

    type(await screen.findByLabelText('User'), 'ana@client.example');
    type(screen.getByLabelText('Password'), 'Correct-Horse-42!');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/'));
    expect(api.posted('/api/v1/account/login'), 'the page sends no address it would not follow').toEqual([expect.objectContaining({ returnUrl: null })]);
  });

  it.each(HOSTILE)('goes home after a reset whose answer and link name %j', async (redirectTo) => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api.on('GET /api/v1/account/validateToken/ana%40client.example/abc', json(200, { success: true, errors: [] }));
    api.on('POST /api/v1/account/changePassword', json(200, { success: true, errors: [], message: 'ok', redirectTo }));
    renderAccount(`changePassword?identityName=ana%40client.example&token=abc&returnUrl=${encodeURIComponent(redirectTo)}`);

    type(await screen.findByLabelText('New password'), 'Str0ng&Secure!');
    type(screen.getByLabelText('Confirm password'), 'Str0ng&Secure!');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(navigateTo).toHaveBeenLastCalledWith('/');
    await act(async () => {
      vi.advanceTimersByTime(SUCCESS_REDIRECT_MS);
    });
    expect(vi.mocked(navigateTo).mock.calls.every(([url]) => url === '/')).toBe(true);
  });

  it.each(HOSTILE)('goes home when the consent answer names %j', async (redirectTo) => {
    api.on(
      'GET /api/v1/account/interaction',
      json(200, { uid: 'uid-2', prompt: 'consent', client: { clientId: 'crm', displayName: 'CRM', firstParty: false }, scopes: ['openid'], missingScopes: ['openid'], loginHint: null }),
    );
    api.on('POST /api/v1/account/consent', json(200, { success: true, redirectTo }));
    renderAccount('login?interaction=uid-2');

    fireEvent.click(await screen.findByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/'));
  });
});

describe('security: the consent screen shows everything "Allow" grants', () => {
  it('lists the access to other services and the claims asked for, and names the interaction it showed', async () => {
    api.on(
      'GET /api/v1/account/interaction',
      json(200, {
        uid: 'uid-3',
        prompt: 'consent',
        client: { clientId: 'crm', displayName: 'CRM', firstParty: false },
        scopes: ['openid', 'admin'],
        missingScopes: ['openid'],
        missingClaims: ['email'],
        resourceScopes: [
          { resource: 'https://id.example.com/api/v1/admin', scopes: ['admin'] },
          { resource: 'https://api.example.com', scopes: ['read'] },
        ],
        loginHint: null,
      }),
    );
    api.on('POST /api/v1/account/consent', json(200, { success: true, redirectTo: '/oidc/auth/uid-3' }));
    renderAccount('login?interaction=uid-3');

    expect(await screen.findByRole('heading', { name: 'Authorize CRM' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Signing you in',
      'Your “email” information',
      'Administering the identity service in your name (admin API: https://id.example.com/api/v1/admin)',
      '“read” access to https://api.example.com',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/oidc/auth/uid-3'));
    expect(api.posted('/api/v1/account/consent')).toEqual([{ approve: true, interaction: 'uid-3' }]);
  });
});
