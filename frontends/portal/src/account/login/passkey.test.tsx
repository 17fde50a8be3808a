import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { navigateTo } from '../account-api';
import { json, loginAnswer, mockApi, renderAccount, type ApiMock } from '../test-utils';

vi.mock('../account-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../account-api')>()),
  navigateTo: vi.fn(),
}));

vi.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: vi.fn(),
  browserSupportsWebAuthnAutofill: vi.fn(),
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
  WebAuthnAbortService: { cancelCeremony: vi.fn() },
}));

const OPTIONS = { challenge: 'c2lnbi1pbg', rpId: 'localhost', allowCredentials: [], userVerification: 'required' };
const CREATION = { challenge: 'YWRk', rp: { id: 'localhost', name: 'Gatehouse' }, user: { id: 'dQ', name: 'ana', displayName: 'Ana' }, pubKeyCredParams: [] };
const ASSERTION = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' }, clientExtensionResults: {} };
const CREDENTIAL = { id: 'cred-2', rawId: 'cred-2', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'AA' }, clientExtensionResults: {} };

/** A DOMException as the browser throws it when its prompt ends without a credential. */
const browserError = (name: string) => Object.assign(new Error(`${name} from the browser`), { name });

let api: ApiMock;

beforeEach(() => {
  vi.mocked(navigateTo).mockReset();
  vi.mocked(browserSupportsWebAuthn).mockReset().mockReturnValue(true);
  vi.mocked(browserSupportsWebAuthnAutofill).mockReset().mockResolvedValue(false);
  vi.mocked(startAuthentication).mockReset().mockResolvedValue(ASSERTION as AuthenticationResponseJSON);
  vi.mocked(startRegistration).mockReset().mockResolvedValue(CREDENTIAL as RegistrationResponseJSON);
  vi.mocked(WebAuthnAbortService.cancelCeremony).mockReset();
  document.cookie = 'XSRF-TOKEN=xsrf; path=/';
  api = mockApi();
  api.on('GET /api/v1/config', json(200, { microsoftSignIn: false, groupDomains: ['group.example'] }));
  api.on('POST /api/v1/account/passkey/options', json(200, { options: OPTIONS }));
});

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

/** The step whose heading is `name`, once it shows. */
async function step(name: string): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name });
  return heading.closest('section')!;
}

const signInForm = () => step('Sign in as a local user');

describe('/account/login: "Sign in with a passkey"', () => {
  it('asks the browser for a passkey of this sign-in, has the server check it and follows redirectTo', async () => {
    api.on('POST /api/v1/account/passkey/verify', json(200, loginAnswer({ success: true, redirectTo: '/oidc/auth/uid-1' })));
    renderAccount('login?interaction=uid-1&ReturnUrl=%2Fhome');
    const form = await signInForm();
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Remember me' }));

    fireEvent.click(within(form).getByRole('button', { name: 'Sign in with a passkey' }));

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/oidc/auth/uid-1'));
    expect(api.posted('/api/v1/account/passkey/options')).toEqual([{ interaction: 'uid-1' }]);
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS, useBrowserAutofill: false });
    expect(api.posted('/api/v1/account/passkey/verify')).toEqual([
      { interaction: 'uid-1', rememberLogin: true, returnUrl: '/home', response: ASSERTION },
    ]);
    expect(api.posted('/api/v1/account/login')).toEqual([]);
  });

  it('shows the server’s refusal, and nothing alarming when the browser’s prompt is closed', async () => {
    api.on(
      'POST /api/v1/account/passkey/verify',
      json(401, loginAnswer({ code: 'account.passkey_unknown', errors: ['This passkey is not registered for any account.'] })),
    );
    renderAccount('login?interaction=uid-1');
    const form = await signInForm();
    const button = within(form).getByRole('button', { name: 'Sign in with a passkey' });

    fireEvent.click(button);
    expect(await within(form).findByText('This passkey is not registered for any account.')).toBeInTheDocument();
    expect(navigateTo).not.toHaveBeenCalled();

    vi.mocked(startAuthentication).mockRejectedValueOnce(browserError('NotAllowedError'));
    fireEvent.click(button);
    expect(await within(form).findByText('No passkey was chosen.')).toBeInTheDocument();
    expect(within(form).queryByText('This passkey is not registered for any account.')).not.toBeInTheDocument();
    expect(form.querySelector('.ant-alert-error')).toBeNull();
    expect(api.posted('/api/v1/account/passkey/verify')).toHaveLength(1);
  });

  it('says when the browser or the authenticator could not use the passkey', async () => {
    vi.mocked(startAuthentication).mockRejectedValueOnce(browserError('SecurityError'));
    renderAccount('login?interaction=uid-1');
    const form = await signInForm();

    fireEvent.click(within(form).getByRole('button', { name: 'Sign in with a passkey' }));

    expect(await within(form).findByText('Your passkey could not be used. Try again, or sign in another way.')).toBeInTheDocument();
    expect(api.posted('/api/v1/account/passkey/verify')).toEqual([]);
  });

  it('shows the refusal of the challenge itself, and follows an expired sign-in to its new start', async () => {
    api.on('POST /api/v1/account/passkey/options', json(429, { code: 'errors.too_many_requests', message: 'Too many requests.', errors: [] }));
    renderAccount('login?interaction=uid-1');
    const form = await signInForm();
    fireEvent.click(within(form).getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await within(form).findByText('Too many requests.')).toBeInTheDocument();
    expect(startAuthentication).not.toHaveBeenCalled();

    api.on('POST /api/v1/account/passkey/options', json(400, loginAnswer({ code: 'account.interaction_expired', errors: ['Expired.'], redirectTo: '/' })));
    fireEvent.click(within(form).getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/'));
  });

  it('goes on to the expired-password step like a password sign-in', async () => {
    api.on(
      'POST /api/v1/account/passkey/verify',
      json(200, loginAnswer({ changePassword: true, token: 'expired-token', errors: ['Your password has expired, please create a new password to login'] })),
    );
    renderAccount('login?interaction=uid-1');
    fireEvent.click(within(await signInForm()).getByRole('button', { name: 'Sign in with a passkey' }));

    const expired = await step('Change your password');
    expect(within(expired).getByRole('alert')).toHaveTextContent('Your password has expired, please create a new password to login');
  });

  it('is not offered for a group user name, nor by a browser without WebAuthn', async () => {
    const { unmount } = renderAccount('login');
    const form = await signInForm();
    type(within(form).getByLabelText('User'), 'jo@group.example');
    expect(within(form).queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
    type(within(form).getByLabelText('User'), 'jo@client.example');
    expect(within(form).getByRole('button', { name: 'Sign in with a passkey' })).toBeInTheDocument();
    unmount();

    vi.mocked(browserSupportsWebAuthn).mockReturnValue(false);
    renderAccount('login');
    const plain = await signInForm();
    expect(within(plain).getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(within(plain).queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });
});

describe('/account/login: passkeys in the user field’s autofill', () => {
  /** A browser prompt that stays open until the test answers it, or until the page cancels it. */
  function pendingPrompt() {
    let answer!: (value: AuthenticationResponseJSON) => void;
    let fail!: (error: Error) => void;
    const prompt = new Promise<AuthenticationResponseJSON>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
    vi.mocked(WebAuthnAbortService.cancelCeremony).mockImplementation(() => fail(browserError('AbortError')));
    return { prompt, answer };
  }

  beforeEach(() => {
    vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
  });

  it('marks the user field for passkeys and starts a conditional request as the form opens; a passkey chosen there signs in', async () => {
    const autofill = pendingPrompt();
    vi.mocked(startAuthentication).mockReturnValueOnce(autofill.prompt);
    api.on('POST /api/v1/account/passkey/verify', json(200, loginAnswer({ success: true, redirectTo: '/oidc/auth/uid-1' })));
    renderAccount('login?interaction=uid-1');
    const form = await signInForm();

    expect(within(form).getByLabelText('User')).toHaveAttribute('autocomplete', 'username webauthn');
    await waitFor(() => expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS, useBrowserAutofill: true }));
    expect(api.posted('/api/v1/account/passkey/options')).toEqual([{ interaction: 'uid-1' }]);
    expect(api.posted('/api/v1/account/passkey/verify')).toEqual([]);

    fireEvent.click(within(form).getByRole('checkbox', { name: 'Remember me' }));
    autofill.answer(ASSERTION as AuthenticationResponseJSON);

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/oidc/auth/uid-1'));
    // "Remember me" as it is when the passkey is chosen, not as it was when the page opened.
    expect(api.posted('/api/v1/account/passkey/verify')).toEqual([
      { interaction: 'uid-1', rememberLogin: true, returnUrl: null, response: ASSERTION },
    ]);
  });

  it('stops the autofill request when the button opens the browser’s prompt, and makes it again once that one is closed', async () => {
    const autofill = pendingPrompt();
    vi.mocked(startAuthentication)
      .mockImplementation(() => new Promise(() => undefined))
      .mockReturnValueOnce(autofill.prompt)
      .mockRejectedValueOnce(browserError('NotAllowedError'));
    renderAccount('login?interaction=uid-1');
    const form = await signInForm();
    await waitFor(() => expect(startAuthentication).toHaveBeenCalledTimes(1));

    fireEvent.click(within(form).getByRole('button', { name: 'Sign in with a passkey' }));

    expect(await within(form).findByText('No passkey was chosen.')).toBeInTheDocument();
    expect(WebAuthnAbortService.cancelCeremony).toHaveBeenCalled();
    await waitFor(() => expect(startAuthentication).toHaveBeenCalledTimes(3));
    expect(vi.mocked(startAuthentication).mock.calls.map(([options]) => options.useBrowserAutofill)).toEqual([true, false, true]);
    // The stopped request was never sent to the server: only the challenges were asked for.
    expect(api.posted('/api/v1/account/passkey/verify')).toEqual([]);
    expect(api.posted('/api/v1/account/passkey/options')).toHaveLength(3);
  });

  it('says nothing when the autofill request ends before a passkey was chosen there', async () => {
    vi.mocked(startAuthentication).mockRejectedValueOnce(browserError('NotAllowedError'));
    renderAccount('login?interaction=uid-1');
    const form = await signInForm();
    await waitFor(() => expect(startAuthentication).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(within(form).queryByText('No passkey was chosen.')).not.toBeInTheDocument();
    expect(form.querySelector('.ant-alert')).toBeNull();
    expect(within(form).getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
    expect(startAuthentication).toHaveBeenCalledTimes(1);
  });

  it('starts no conditional request in a browser without passkey autofill', async () => {
    vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(false);
    renderAccount('login?interaction=uid-1');
    await signInForm();
    await waitFor(() => expect(browserSupportsWebAuthnAutofill).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(startAuthentication).not.toHaveBeenCalled();
    expect(api.posted('/api/v1/account/passkey/options')).toEqual([]);
  });
});

describe('/account/login: a passkey as the second factor', () => {
  const passkeyStep = (methods: string[]) =>
    api.on(
      'POST /api/v1/account/login',
      json(200, loginAnswer({ twoAuthentificationRequired: true, token: 'step-token', twoFactorMethod: 'passkey', twoFactorMethods: methods })),
    );

  async function signInWithPassword() {
    renderAccount('login?interaction=uid-1');
    const form = await signInForm();
    type(within(form).getByLabelText('User'), 'ana@client.example');
    type(within(form).getByLabelText('Password'), 'Correct horse 1!');
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Remember me' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Log in' }));
    return step('Two-step verification');
  }

  it('opens the passkey prompt once by itself, for the step’s token, and signs in', async () => {
    passkeyStep(['passkey']);
    api.on('POST /api/v1/account/passkey/verify', json(200, loginAnswer({ success: true, redirectTo: '/oidc/auth/uid-1' })));
    const twoFactor = await signInWithPassword();

    expect(within(twoFactor).getByText('Confirm it is you with your passkey.')).toBeInTheDocument();
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/oidc/auth/uid-1'));
    expect(api.posted('/api/v1/account/passkey/options')).toEqual([{ token: 'step-token' }]);
    expect(startAuthentication).toHaveBeenCalledTimes(1);
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS, useBrowserAutofill: false });
    expect(api.posted('/api/v1/account/passkey/verify')).toEqual([{ token: 'step-token', rememberLogin: true, response: ASSERTION }]);
  });

  it('leaves the button and the other ways when the prompt is closed, and takes a recovery code instead', async () => {
    passkeyStep(['passkey', 'totp', 'recovery']);
    vi.mocked(startAuthentication).mockRejectedValueOnce(browserError('NotAllowedError'));
    api.on('POST /api/v1/account/verifyCode', json(200, loginAnswer({ success: true, redirectTo: '/oidc/auth/uid-1' })));
    const twoFactor = await signInWithPassword();

    expect(await within(twoFactor).findByText('No passkey was chosen.')).toBeInTheDocument();
    expect(within(twoFactor).getByRole('button', { name: 'Use your passkey' })).toBeEnabled();
    const others = within(twoFactor).getByRole('list', { name: 'Other ways to verify' });
    expect(within(others).getAllByRole('button').map((button) => button.textContent)).toEqual(['Use your authenticator app', 'Use a recovery code']);

    fireEvent.click(within(others).getByRole('button', { name: 'Use a recovery code' }));
    expect(within(twoFactor).getByText('Enter one of your recovery codes. Each code works only once.')).toBeInTheDocument();
    const input = within(twoFactor).getByLabelText('Recovery code');
    expect(input).toHaveFocus();
    type(input, 'abcde');
    fireEvent.click(within(twoFactor).getByRole('button', { name: 'Submit' }));
    expect(await within(twoFactor).findByText('A recovery code looks like xxxxx-xxxxx')).toBeInTheDocument();
    expect(api.posted('/api/v1/account/verifyCode')).toEqual([]);

    type(input, ' k3x9p-7hq2m ');
    fireEvent.click(within(twoFactor).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/oidc/auth/uid-1'));
    expect(api.posted('/api/v1/account/verifyCode')).toEqual([{ token: 'step-token', recoveryCode: 'k3x9p-7hq2m', userName: 'ana@client.example' }]);
    // The other ways now include the passkey, which the prompt did not trap the user in.
    expect(within(twoFactor).getByRole('button', { name: 'Use a passkey' })).toBeInTheDocument();
    expect(startAuthentication).toHaveBeenCalledTimes(1);
  });

  it('shows a refused recovery code as the server words it and empties the field', async () => {
    passkeyStep(['passkey', 'recovery']);
    vi.mocked(startAuthentication).mockRejectedValueOnce(browserError('NotAllowedError'));
    api.on('POST /api/v1/account/verifyCode', json(401, loginAnswer({ code: 'account.invalid_recovery_code', errors: ['This recovery code is not valid.'] })));
    const twoFactor = await signInWithPassword();
    await within(twoFactor).findByText('No passkey was chosen.');

    fireEvent.click(within(twoFactor).getByRole('button', { name: 'Use a recovery code' }));
    type(within(twoFactor).getByLabelText('Recovery code'), 'k3x9p-7hq2m');
    fireEvent.click(within(twoFactor).getByRole('button', { name: 'Submit' }));

    expect(await within(twoFactor).findByText('This recovery code is not valid.')).toBeInTheDocument();
    expect(within(twoFactor).getByLabelText('Recovery code')).toHaveValue('');
  });

  it('switches to the authenticator app’s code, then sends an e-mailed code when asked', async () => {
    passkeyStep(['passkey', 'totp', 'email']);
    vi.mocked(startAuthentication).mockRejectedValueOnce(browserError('NotAllowedError'));
    api.on('POST /api/v1/account/resendCode', json(200, { success: true, errors: [], codeExpiresAt: new Date(Date.now() + 300_000).toISOString() }));
    const twoFactor = await signInWithPassword();
    await within(twoFactor).findByText('No passkey was chosen.');

    fireEvent.click(within(twoFactor).getByRole('button', { name: 'Use your authenticator app' }));
    expect(within(twoFactor).getByText('Enter the 6-digit code shown by your authenticator app.')).toBeInTheDocument();
    expect(within(twoFactor).getByLabelText('Verification code')).toHaveAttribute('autocomplete', 'one-time-code');
    expect(api.posted('/api/v1/account/resendCode')).toEqual([]);

    fireEvent.click(within(twoFactor).getByRole('button', { name: 'Send me a code by e-mail instead' }));
    expect(await within(twoFactor).findByText('A new code has been sent to your e-mail address.')).toBeInTheDocument();
    expect(within(twoFactor).getByRole('timer')).toBeInTheDocument();
    expect(api.posted('/api/v1/account/resendCode')).toEqual([{ token: 'step-token' }]);
  });

  it('offers a recovery code beside the authenticator app when the server lists one', async () => {
    api.on(
      'POST /api/v1/account/login',
      json(200, loginAnswer({ twoAuthentificationRequired: true, token: 'totp-token', twoFactorMethod: 'totp', twoFactorMethods: ['totp', 'recovery'] })),
    );
    const twoFactor = await signInWithPassword();

    expect(within(twoFactor).getByLabelText('Verification code')).toBeInTheDocument();
    const others = within(twoFactor).getByRole('list', { name: 'Other ways to verify' });
    // No e-mailed code: the server did not list one.
    expect(within(others).getAllByRole('button').map((button) => button.textContent)).toEqual(['Use a recovery code']);
    expect(startAuthentication).not.toHaveBeenCalled();
  });
});

describe('/account/login: a passkey required by the company', () => {
  beforeEach(() => {
    api.on('POST /api/v1/account/login', json(200, loginAnswer({ passkeyEnrolmentRequired: true, token: 'enrol-token' })));
    api.on('POST /api/v1/account/passkey/register/options', json(200, { options: CREATION }));
  });

  async function reachEnrolment() {
    renderAccount('login?interaction=uid-1');
    const form = await signInForm();
    type(within(form).getByLabelText('User'), 'ana@client.example');
    type(within(form).getByLabelText('Password'), 'Correct horse 1!');
    fireEvent.click(within(form).getByRole('button', { name: 'Log in' }));
    return step('Add a passkey');
  }

  it('explains the rule, adds the passkey with the step’s token and finishes the sign-in', async () => {
    api.on('POST /api/v1/account/passkey/register', json(200, loginAnswer({ success: true, redirectTo: '/oidc/auth/uid-1' })));
    const enrolment = await reachEnrolment();
    expect(within(enrolment).getByText(/Your company requires a passkey to sign in\./)).toBeInTheDocument();
    expect(startRegistration).not.toHaveBeenCalled();

    fireEvent.click(within(enrolment).getByRole('button', { name: 'Add a passkey' }));

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/oidc/auth/uid-1'));
    expect(api.posted('/api/v1/account/passkey/register/options')).toEqual([{ token: 'enrol-token' }]);
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: CREATION });
    expect(api.posted('/api/v1/account/passkey/register')).toEqual([{ token: 'enrol-token', response: CREDENTIAL }]);
  });

  it('says so when no passkey was added, shows a refusal, and goes back on Cancel', async () => {
    vi.mocked(startRegistration).mockRejectedValueOnce(browserError('NotAllowedError'));
    api.on('POST /api/v1/account/passkey/register', json(400, loginAnswer({ code: 'account.passkey_invalid', errors: ['The passkey could not be verified.'] })));
    const enrolment = await reachEnrolment();
    const add = within(enrolment).getByRole('button', { name: 'Add a passkey' });

    fireEvent.click(add);
    expect(await within(enrolment).findByText('No passkey was added.')).toBeInTheDocument();
    expect(api.posted('/api/v1/account/passkey/register')).toEqual([]);

    fireEvent.click(add);
    expect(await within(enrolment).findByText('The passkey could not be verified.')).toBeInTheDocument();
    expect(navigateTo).not.toHaveBeenCalled();

    fireEvent.click(within(enrolment).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Sign in as a local user' })).toBeInTheDocument();
  });

  it('goes on to the second factor when the server asks for one after the passkey', async () => {
    api.on(
      'POST /api/v1/account/passkey/register',
      json(200, loginAnswer({ twoAuthentificationRequired: true, token: 'step-2', twoFactorMethod: 'totp', twoFactorMethods: ['totp'] })),
    );
    const enrolment = await reachEnrolment();
    fireEvent.click(within(enrolment).getByRole('button', { name: 'Add a passkey' }));

    const twoFactor = await step('Two-step verification');
    expect(within(twoFactor).getByText('Enter the 6-digit code shown by your authenticator app.')).toBeInTheDocument();
  });
});
