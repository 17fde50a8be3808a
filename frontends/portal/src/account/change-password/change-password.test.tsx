import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigateTo } from '../account-api';
import { json, loginAnswer, mockApi, renderAccount, type ApiMock } from '../test-utils';
import { SUCCESS_REDIRECT_MS } from './ChangePasswordPage';

vi.mock('../account-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../account-api')>()),
  navigateTo: vi.fn(),
}));

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

// The token arrives with a space where the mail client broke its '+'.
const LINK = 'changePassword?identityName=ana%40client.example&token=abc%20def&returnUrl=%2Fhome';
const VALIDATE_PATH = '/api/v1/account/validateToken/ana%40client.example/abc%2Bdef';

async function dialogWith(text: string): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = screen.getAllByRole('dialog').find((element) => element.textContent?.includes(text));
    expect(dialog, `a dialog saying "${text}"`).toBeDefined();
    return dialog!;
  });
}

describe('/account/changePassword: the link is checked on load', () => {
  it('shows the form for a valid link, checked with the token’s spaces read as "+"', async () => {
    let answer: (response: Response) => void = () => undefined;
    api.on(`GET ${VALIDATE_PATH}`, () => new Promise<Response>((resolve) => (answer = resolve)));
    renderAccount(LINK);

    expect(await screen.findByText('Checking your link…')).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    answer(json(200, { success: true, errors: [] }));
    expect(await screen.findByLabelText('New password')).toBeInTheDocument();
    expect(screen.getByText('Choose the new password for ana@client.example.')).toBeInTheDocument();
    expect(api.calls(VALIDATE_PATH)).toHaveLength(1);
  });

  it('explains an invalid link with the server’s message, then returns to the base page', async () => {
    api.on(
      `GET ${VALIDATE_PATH}`,
      json(400, {
        success: false,
        code: 'account.invalid_token',
        errors: ['Invalid or expired sign-in link. Please ask your contact or your administrator to send you a new one.'],
      }),
    );
    renderAccount(LINK);

    const dialog = await dialogWith('This link cannot be used');
    expect(dialog).toHaveTextContent('Invalid or expired sign-in link. Please ask your contact or your administrator');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(navigateTo).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(navigateTo).toHaveBeenCalledWith('/');
  });

  it.each([
    ['the server fails', () => json(500, { code: 'errors.internal', message: 'boom', errors: [] })],
    ['the network is down', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('shows an error dialog, then redirects, when %s', async (_, answer) => {
    api.on(`GET ${VALIDATE_PATH}`, answer);
    renderAccount(LINK);

    const dialog = await dialogWith('Your link could not be checked. Please try again later.');
    expect(dialog).toHaveTextContent('Error');
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(navigateTo).toHaveBeenCalledWith('/');
  });

  it('offers "Problems to access? Contact Us!" when a support address is configured', async () => {
    api.on('GET /api/v1/config', json(200, { links: { support: 'https://support.example.com/help' } }));
    api.on(`GET ${VALIDATE_PATH}`, json(200, { success: true, errors: [] }));
    renderAccount(LINK);

    const contact = await screen.findByRole('link', { name: /Problems to access\? Contact Us!/ });
    expect(contact).toHaveAttribute('href', 'https://support.example.com/help');
    expect(contact).toHaveAttribute('target', '_blank');
    expect(contact.getAttribute('rel')).toContain('noopener');
  });

  it('refuses a link without its token, without asking the server about it', async () => {
    renderAccount('changePassword?identityName=ana%40client.example');

    expect(await dialogWith('Invalid or expired sign-in link.')).toBeInTheDocument();
    // The configuration (the footer's contact link) is all the page reads.
    const paths = api.fetch.mock.calls.map(([input]) => new URL(String(input), window.location.origin).pathname);
    expect(paths).toEqual(['/api/v1/config']);
  });
});

describe('/account/changePassword: the new password', () => {
  beforeEach(() => {
    api.on(`GET ${VALIDATE_PATH}`, json(200, { success: true, errors: [] }));
  });

  async function submit(password: string, confirmation = password) {
    renderAccount(LINK);
    type(await screen.findByLabelText('New password'), password);
    type(screen.getByLabelText('Confirm password'), confirmation);
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
  }

  it('applies the same rules as the sign-in: both required and matching', async () => {
    renderAccount(LINK);
    await screen.findByLabelText('New password');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Enter your password')).toBeInTheDocument();
    expect(screen.getByText('Re-enter your password')).toBeInTheDocument();

    type(screen.getByLabelText('New password'), 'Str0ng&Secure!');
    type(screen.getByLabelText('Confirm password'), 'different');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();
    expect(api.posted('/api/v1/account/changePassword')).toEqual([]);
  });

  it('confirms the change, then goes to the return address after a few seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api.on(
      'POST /api/v1/account/changePassword',
      json(200, { success: true, errors: [], message: 'Your password has been reset', redirectTo: '/home' }),
    );
    await submit('Str0ng&Secure!');

    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been reset');
    expect(screen.queryByText('Password has been successfully changed')).not.toBeInTheDocument();
    expect(api.posted('/api/v1/account/changePassword')).toEqual([
      { identityName: 'ana@client.example', token: 'abc+def', newPassword: 'Str0ng&Secure!', confirmPassword: 'Str0ng&Secure!', returnUrl: '/home' },
    ]);
    expect(navigateTo).not.toHaveBeenCalled();

    await act(async () => {
      vi.advanceTimersByTime(SUCCESS_REDIRECT_MS);
    });
    expect(navigateTo).toHaveBeenCalledWith('/home');
  });

  it.each([
    ['no message', {}],
    ['an empty message', { message: ' ' }],
  ])('says the password has been changed in its own words when the server sent %s', async (_, fields) => {
    api.on('POST /api/v1/account/changePassword', json(200, { success: true, errors: [], redirectTo: '/', ...fields }));
    await submit('Str0ng&Secure!');

    expect(await screen.findByRole('status')).toHaveTextContent('Password has been successfully changed');
  });

  it('lets the user continue at once', async () => {
    api.on('POST /api/v1/account/changePassword', json(200, { success: true, errors: [], message: 'ok', redirectTo: '/' }));
    await submit('Str0ng&Secure!');

    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(navigateTo).toHaveBeenCalledWith('/');
  });

  it('shows the rules the server refused', async () => {
    api.on(
      'POST /api/v1/account/changePassword',
      json(400, {
        code: 'errors.validation',
        message: 'The request is not valid',
        errors: [{ field: 'newPassword', code: 'password.too_short', message: 'The password must have at least 12 characters' }],
      }),
    );
    await submit('Sh0rt&');

    expect(await screen.findByRole('alert')).toHaveTextContent('The password must have at least 12 characters');
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
  });

  describe('errors follow what is typed once shown', () => {
    // The answer as the account API words it: the texts, and the field each one is about.
    const refusal = (...errors: Array<[field: string, code: string, message: string]>) =>
      json(400, {
        ...loginAnswer({ code: errors[0]![1], errors: errors.map(([, , message]) => message) }),
        fieldErrors: errors.map(([field, code, message]) => ({ field, code, message })),
      });
    const shown = (text: string) => screen.queryByText(text) !== null;

    it('drops a refused rule as soon as the new password meets it, and keeps the others', async () => {
      api.on(
        'POST /api/v1/account/changePassword',
        refusal(
          ['newPassword', 'password.too_short', 'The password must have at least 12 characters'],
          ['newPassword', 'password.symbol', 'The password must have a symbol'],
        ),
      );
      await submit('Sh0rtpass');
      expect(await screen.findByText('The password must have a symbol')).toBeInTheDocument();

      type(screen.getByLabelText('New password'), 'Sh0rtpass&');
      expect(shown('The password must have a symbol')).toBe(false);
      expect(shown('The password must have at least 12 characters')).toBe(true);

      type(screen.getByLabelText('New password'), 'Sh0rtpass&longer');
      expect(shown('The password must have at least 12 characters')).toBe(false);
      expect(document.querySelector('.account-step__messages'), 'no server message left').toBeNull();
    });

    it('keeps a refusal only the server can judge while the password is the one it refused', async () => {
      api.on('POST /api/v1/account/changePassword', refusal(['newPassword', 'password.reused', 'The password cannot be one of your last 7 passwords']));
      await submit('Str0ng&Secure!');
      expect(await screen.findByText('The password cannot be one of your last 7 passwords')).toBeInTheDocument();

      type(screen.getByLabelText('New password'), 'Str0ng&Secure!2');
      expect(shown('The password cannot be one of your last 7 passwords')).toBe(false);
      type(screen.getByLabelText('New password'), 'Str0ng&Secure!');
      expect(shown('The password cannot be one of your last 7 passwords')).toBe(true);
    });

    it('clears "do not match" when either field makes them match', async () => {
      renderAccount(LINK);
      type(await screen.findByLabelText('New password'), 'Str0ng&Secure!');
      type(screen.getByLabelText('Confirm password'), 'Str0ng&Secure?');
      fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
      expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();

      type(screen.getByLabelText('New password'), 'Str0ng&Secure?');
      expect(shown("Passwords don't match")).toBe(false);
      type(screen.getByLabelText('Confirm password'), 'Str0ng&Secure');
      expect(shown("Passwords don't match")).toBe(true);
      type(screen.getByLabelText('Confirm password'), 'Str0ng&Secure?');
      expect(shown("Passwords don't match")).toBe(false);
    });
  });

  it('explains a link used up meanwhile, then returns to the base page', async () => {
    api.on(
      'POST /api/v1/account/changePassword',
      json(400, { success: false, code: 'account.invalid_token', errors: ['Invalid or expired sign-in link.'] }),
    );
    await submit('Str0ng&Secure!');

    const dialog = await dialogWith('This link cannot be used');
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(navigateTo).toHaveBeenCalledWith('/');
  });
});

describe('/account/changePassword: the strength of the new password', () => {
  it('is said in the page’s language as the user types, with the reason while too easy to guess', async () => {
    api.on(`GET ${VALIDATE_PATH}`, json(200, { success: true, errors: [] }));
    renderAccount(LINK, { language: 'fr' });
    const field = await screen.findByLabelText('Nouveau mot de passe');

    type(field, 'Password1234!');
    const line = await screen.findByText(/^Robustesse : faible/, {}, { timeout: 15_000 });
    expect(line.textContent).toBe(
      'Robustesse : faible Trop facile à deviner. Ce mot de passe est similaire à un mot de passe couramment utilisé. Ajoutez des mots moins courants. Utilisez des majuscules mais pas seulement sur la première lettre.',
    );
    type(field, 'tuba-Lantern-9-orbit-calm');
    await waitFor(() => expect(screen.getByText(/^Robustesse :/).textContent).toBe('Robustesse : excellente'), { timeout: 15_000 });
  });

  it('keeps the line’s place, empty and hidden from screen readers, until the estimator answers: the button below does not move', async () => {
    api.on(`GET ${VALIDATE_PATH}`, json(200, { success: true, errors: [] }));
    const { container } = renderAccount(LINK);
    await screen.findByLabelText('New password');
    const held = container.querySelector('.account-rules__strength');
    expect(held).not.toBeNull();
    expect(held!.getAttribute('aria-hidden')).toBe('true');
    expect(held!.textContent).toBe('');
    // The button comes after the held line, as it will after the strength is said.
    const button = screen.getByRole('button', { name: 'Change Password' });
    expect(held!.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    type(screen.getByLabelText('New password'), 'tuba-Lantern-9-orbit-calm');
    await waitFor(() => expect(container.querySelector('.account-rules__strength')!.textContent).toBe('Strength: strong'), { timeout: 15_000 });
    expect(container.querySelectorAll('.account-rules__strength')).toHaveLength(1);
  });
});
