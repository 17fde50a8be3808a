import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigateTo } from '../account-api';
import { json, loginAnswer, mockApi, renderAccount, type ApiMock } from '../test-utils';
import { codeDeadline, CODE_LIFETIME_MS, formatRemaining } from './use-countdown';

vi.mock('../account-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../account-api')>()),
  navigateTo: vi.fn(),
}));

let api: ApiMock;

beforeEach(() => {
  vi.mocked(navigateTo).mockReset();
  document.cookie = 'XSRF-TOKEN=xsrf; path=/';
  api = mockApi();
  // The local form comes first, without the choice.
  api.on('GET /api/v1/config', json(200, { microsoftSignIn: false }));
});

afterEach(() => {
  vi.useRealTimers();
});

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

async function submitCredentials(userName = 'ana@client.example', password = 'Correct horse 1!') {
  renderAccount('login?interaction=uid-1');
  type(await screen.findByLabelText('User'), userName);
  type(screen.getByLabelText('Password'), password);
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

const inFiveMinutes = () => new Date(Date.now() + CODE_LIFETIME_MS).toISOString();

describe('credentials → two-step verification', () => {
  beforeEach(() => {
    api.on(
      'POST /api/v1/account/login',
      json(200, loginAnswer({ twoAuthentificationRequired: true, token: 'step-token', twoFactorMethod: 'email', codeExpiresAt: inFiveMinutes() })),
    );
  });

  it('asks for the e-mailed code with a 5-minute countdown and no Resend yet', async () => {
    await submitCredentials();

    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeInTheDocument();
    expect(screen.getByText('We have sent a 6-digit code to your e-mail address. Enter it to finish signing in.')).toBeInTheDocument();
    const code = screen.getByLabelText('Verification code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveFocus();
    expect(screen.getByRole('timer')).toHaveTextContent(/The code expires in (5:00|4:5\d)/);
    expect(screen.queryByRole('button', { name: 'Resend Code' })).not.toBeInTheDocument();
  });

  it('checks the code is 6 digits, then sends it with the step token and follows redirectTo', async () => {
    api.on('POST /api/v1/account/verifyCode', json(200, loginAnswer({ success: true, redirectTo: '/oidc/auth/uid-1' })));
    await submitCredentials();
    const code = await screen.findByLabelText('Verification code');

    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Enter the code')).toBeInTheDocument();
    type(code, '12 34');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The code has 6 digits')).toBeInTheDocument();
    expect(api.posted('/api/v1/account/verifyCode')).toEqual([]);

    type(code, '123 456');
    expect(code).toHaveValue('123456');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/oidc/auth/uid-1'));
    expect(api.posted('/api/v1/account/verifyCode')).toEqual([{ token: 'step-token', code: '123456', userName: 'ana@client.example' }]);
  });

  it('shows a wrong code as the server words it', async () => {
    api.on('POST /api/v1/account/verifyCode', json(401, loginAnswer({ code: 'account.invalid_code', errors: ['Invalid code'], attemptsLeft: 4 })));
    await submitCredentials();
    type(await screen.findByLabelText('Verification code'), '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid code');
    expect(screen.getByLabelText('Verification code')).toHaveValue('');
  });

  it('says "User Is Locked Out" when a wrong code locks the account, with the end of the lock in local time', async () => {
    const until = '2030-01-02T03:04:05.000Z';
    api.on(
      'POST /api/v1/account/verifyCode',
      json(
        423,
        loginAnswer({
          code: 'account.locked_out',
          errors: ['User Is Locked Out', 'Your account is locked after 5 failed attempts. Try again after 2030-01-02 03:04 UTC.'],
          lockedUntil: until,
          lockedAfter: 5,
        }),
      ),
    );
    await submitCredentials();
    type(await screen.findByLabelText('Verification code'), '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));

    const [headline, detail] = await screen.findAllByRole('alert');
    expect(headline).toHaveTextContent('User Is Locked Out');
    const local = new Date(until);
    const two = (n: number) => String(n).padStart(2, '0');
    expect(detail).toHaveTextContent(
      `Your account is locked after 5 failed attempts. Try again after ${two(local.getDate())}-${two(local.getMonth() + 1)}-${local.getFullYear()} ${two(local.getHours())}:${two(local.getMinutes())}:${two(local.getSeconds())}.`,
    );
  });

  it('shows "Code expired!" when the server says so, then resends a code with a new countdown', async () => {
    api.on('POST /api/v1/account/verifyCode', json(400, loginAnswer({ code: 'account.code_expired', errors: ['Code expired!'] })));
    api.on('POST /api/v1/account/resendCode', json(200, { success: true, errors: [], codeExpiresAt: inFiveMinutes() }));
    await submitCredentials();
    type(await screen.findByLabelText('Verification code'), '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText('Code expired!')).toBeInTheDocument();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Resend Code' }));

    expect(await screen.findByText('A new code has been sent to your e-mail address.')).toBeInTheDocument();
    expect(screen.queryByText('Code expired!')).not.toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent(/The code expires in (5:00|4:5\d)/);
    expect(screen.queryByRole('button', { name: 'Resend Code' })).not.toBeInTheDocument();
    expect(api.posted('/api/v1/account/resendCode')).toEqual([{ token: 'step-token' }]);
  });

  it('shows "Code expired!" and offers Resend Code when the countdown ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await submitCredentials();
    await screen.findByRole('timer');

    await act(async () => {
      vi.advanceTimersByTime(CODE_LIFETIME_MS + 1000);
    });

    expect(screen.getByText('Code expired!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend Code' })).toBeInTheDocument();
  });

  it('says when a new code was asked for too soon', async () => {
    api.on('POST /api/v1/account/verifyCode', json(400, loginAnswer({ code: 'account.code_expired', errors: ['Code expired!'] })));
    api.on(
      'POST /api/v1/account/resendCode',
      json(429, loginAnswer({ code: 'account.resend_too_soon', errors: ['Please wait a moment before asking for a new code.'] })),
    );
    await submitCredentials();
    type(await screen.findByLabelText('Verification code'), '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Resend Code' }));

    expect(await screen.findByText('Please wait a moment before asking for a new code.')).toBeInTheDocument();
  });

  it('goes back to the credentials, user name kept, on Cancel', async () => {
    await submitCredentials('ana@client.example');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));

    expect(await screen.findByRole('heading', { name: 'Sign in as a local user' })).toBeInTheDocument();
    expect(screen.getByLabelText('User')).toHaveValue('ana@client.example');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });
});

describe('credentials → authenticator app', () => {
  it('asks for the app’s code and offers an e-mailed code instead', async () => {
    api.on(
      'POST /api/v1/account/login',
      json(200, loginAnswer({ twoAuthentificationRequired: true, token: 'totp-token', twoFactorMethod: 'totp', codeExpiresAt: null })),
    );
    api.on('POST /api/v1/account/resendCode', json(200, { success: true, errors: [], codeExpiresAt: inFiveMinutes() }));
    await submitCredentials();

    expect(await screen.findByText('Enter the 6-digit code shown by your authenticator app.')).toBeInTheDocument();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Send me a code by e-mail instead' }));

    expect(await screen.findByText('We have sent a 6-digit code to your e-mail address. Enter it to finish signing in.')).toBeInTheDocument();
    expect(screen.getByRole('timer')).toBeInTheDocument();
    expect(api.posted('/api/v1/account/resendCode')).toEqual([{ token: 'totp-token' }]);
  });
});

describe('credentials → expired password', () => {
  beforeEach(() => {
    api.on(
      'POST /api/v1/account/login',
      json(
        200,
        loginAnswer({
          changePassword: true,
          token: 'expired-token',
          code: 'account.password_expired',
          errors: ['Your password has expired, please create a new password to login'],
        }),
      ),
    );
  });

  it('shows the form with the requirements list', async () => {
    await submitCredentials();

    expect(await screen.findByRole('heading', { name: 'Change your password' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Your password has expired, please create a new password to login');
    expect(screen.getByLabelText('New password')).toHaveFocus();
    const rules = screen.getAllByRole('listitem').map((item) => item.textContent?.replace(/\s*\(.*\)$/, ''));
    expect(rules).toEqual([
      'have at least 12 characters',
      'contain an uppercase letter',
      'contain a lowercase letter',
      'contain a digit',
      'contain a symbol',
      'be changed every 90 days',
      'not be one of your last 7 passwords',
    ]);
  });

  it('marks the requirements met as the user types', async () => {
    await submitCredentials();
    type(await screen.findByLabelText('New password'), 'abcDEF');

    const state = (text: string) => screen.getByText(text).closest('li')?.textContent;
    await waitFor(() => expect(state('contain an uppercase letter')).toContain('(met)'));
    expect(state('contain a lowercase letter')).toContain('(met)');
    expect(state('have at least 12 characters')).toContain('(not met yet)');
    expect(state('contain a symbol')).toContain('(not met yet)');
  });

  it('requires both passwords and that they match', async () => {
    await submitCredentials();
    await screen.findByLabelText('New password');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));

    expect(await screen.findByText('Enter your password')).toBeInTheDocument();
    expect(screen.getByText('Re-enter your password')).toBeInTheDocument();

    type(screen.getByLabelText('New password'), 'Str0ng&Secure!');
    type(screen.getByLabelText('Confirm password'), 'Str0ng&Secure?');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();
    expect(api.posted('/api/v1/account/changePassword')).toEqual([]);
  });

  it('shows every rule the server refused, for 10 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api.on(
      'POST /api/v1/account/changePassword',
      json(400, {
        code: 'errors.validation',
        message: 'The request is not valid',
        errors: [
          { field: 'newPassword', code: 'password.symbol', message: 'The password must have a symbol' },
          { field: 'newPassword', code: 'password.reused', message: 'The password cannot be one of your last 7 passwords' },
        ],
      }),
    );
    await submitCredentials();
    type(await screen.findByLabelText('New password'), 'Str0ngSecure12');
    type(screen.getByLabelText('Confirm password'), 'Str0ngSecure12');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));

    expect(await screen.findByText('The password must have a symbol')).toBeInTheDocument();
    expect(screen.getByText('The password cannot be one of your last 7 passwords')).toBeInTheDocument();
    expect(api.posted('/api/v1/account/changePassword')).toEqual([
      { token: 'expired-token', newPassword: 'Str0ngSecure12', confirmPassword: 'Str0ngSecure12' },
    ]);

    await act(async () => {
      vi.advanceTimersByTime(9_000);
    });
    expect(screen.getByText('The password must have a symbol')).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(1_500);
    });
    expect(screen.queryByText('The password must have a symbol')).not.toBeInTheDocument();
  });

  it('drops a refused rule as soon as the new password meets it, before the 10 seconds are up', async () => {
    api.on(
      'POST /api/v1/account/changePassword',
      json(400, {
        ...loginAnswer({ code: 'password.symbol', errors: ['The password must have a symbol', 'The password cannot be one of your last 7 passwords'] }),
        fieldErrors: [
          { field: 'newPassword', code: 'password.symbol', message: 'The password must have a symbol' },
          { field: 'newPassword', code: 'password.reused', message: 'The password cannot be one of your last 7 passwords' },
        ],
      }),
    );
    await submitCredentials();
    type(await screen.findByLabelText('New password'), 'Str0ngSecure12');
    type(screen.getByLabelText('Confirm password'), 'Str0ngSecure12');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('The password must have a symbol')).toBeInTheDocument();

    type(screen.getByLabelText('New password'), 'Str0ngSecure12!');
    expect(screen.queryByText('The password must have a symbol')).not.toBeInTheDocument();
    expect(screen.queryByText('The password cannot be one of your last 7 passwords'), 'said of another password').not.toBeInTheDocument();
    // The confirmation no longer matches: the page's own rule says so, under the field.
    expect(screen.getByText("Passwords don't match")).toBeInTheDocument();
    type(screen.getByLabelText('Confirm password'), 'Str0ngSecure12!');
    expect(screen.queryByText("Passwords don't match")).not.toBeInTheDocument();
  });

  it('continues to the two-step verification after the change', async () => {
    api.on(
      'POST /api/v1/account/changePassword',
      json(200, loginAnswer({ twoAuthentificationRequired: true, token: 'code-token', twoFactorMethod: 'email', codeExpiresAt: inFiveMinutes() })),
    );
    await submitCredentials();
    type(await screen.findByLabelText('New password'), 'Str0ng&Secure!');
    type(screen.getByLabelText('Confirm password'), 'Str0ng&Secure!');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));

    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeInTheDocument();
  });

  it('signs in after the change when nothing else is asked', async () => {
    api.on('POST /api/v1/account/changePassword', json(200, loginAnswer({ success: true, redirectTo: '/oidc/auth/uid-1' })));
    await submitCredentials();
    type(await screen.findByLabelText('New password'), 'Str0ng&Secure!');
    type(screen.getByLabelText('Confirm password'), 'Str0ng&Secure!');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/oidc/auth/uid-1'));
  });

  it('goes back to the credentials on Cancel', async () => {
    await submitCredentials();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Sign in as a local user' })).toBeInTheDocument();
  });
});

describe('codeDeadline', () => {
  const now = Date.parse('2026-01-01T10:00:00Z');

  it('uses the server’s expiry when it is within the code’s lifetime', () => {
    expect(codeDeadline('2026-01-01T10:04:00Z', now)).toBe(Date.parse('2026-01-01T10:04:00Z'));
  });

  it.each([null, '2026-01-01T09:59:00Z', '2026-01-01T11:00:00Z', 'not a date'])(
    'counts the full 5 minutes when the expiry is %s (missing, or clocks apart)',
    (expiry) => {
      expect(codeDeadline(expiry, now)).toBe(now + CODE_LIFETIME_MS);
    },
  );

  it('formats the time left as m:ss', () => {
    expect(formatRemaining(CODE_LIFETIME_MS)).toBe('5:00');
    expect(formatRemaining(61_000)).toBe('1:01');
    expect(formatRemaining(400)).toBe('0:01');
  });
});
