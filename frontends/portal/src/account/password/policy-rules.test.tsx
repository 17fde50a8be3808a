import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, loginAnswer, mockApi, renderAccount, type ApiMock } from '../test-utils';

vi.mock('../account-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../account-api')>()),
  navigateTo: vi.fn(),
}));

/** A policy a God user changed: longer passwords, no symbol, no rotation, a shorter history. */
const POLICY = { minLength: 16, requireUppercase: true, requireLowercase: true, requireDigit: true, requireSymbol: false, historySize: 3, maxAgeDays: 0 };

let api: ApiMock;

beforeEach(() => {
  document.cookie = 'XSRF-TOKEN=xsrf; path=/';
  api = mockApi();
  api.on('GET /api/v1/config', json(200, { microsoftSignIn: false, policy: POLICY }));
  api.on(
    'POST /api/v1/account/login',
    json(200, loginAnswer({ changePassword: true, token: 'expired-token', code: 'account.password_expired', errors: ['Your password has expired, please create a new password to login'] })),
  );
});

afterEach(() => vi.useRealTimers());

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

async function atExpiredPasswordStep() {
  renderAccount('login?interaction=uid-1');
  type(await screen.findByLabelText('User'), 'ana@client.example');
  type(screen.getByLabelText('Password'), 'Correct horse 1!');
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
  return screen.findByLabelText('New password');
}

describe('the password rules come from the policy in force', () => {
  it('lists the configured length and history, and leaves out what the policy does not require', async () => {
    await atExpiredPasswordStep();
    const rules = screen.getAllByRole('listitem').map((item) => item.textContent?.replace(/\s*\(.*\)$/, ''));
    expect(rules).toEqual([
      'have at least 16 characters',
      'contain an uppercase letter',
      'contain a lowercase letter',
      'contain a digit',
      'not be one of your last 3 passwords',
    ]);
  });

  it('checks the configured length as the user types', async () => {
    type(await atExpiredPasswordStep(), 'Abcdefgh12345');
    const state = (text: string) => screen.getByText(text).closest('li')?.textContent;
    await waitFor(() => expect(state('contain a digit')).toContain('(met)'));
    expect(state('have at least 16 characters')).toContain('(not met yet)');
    type(screen.getByLabelText('New password'), 'Abcdefgh12345678');
    await waitFor(() => expect(state('have at least 16 characters')).toContain('(met)'));
  });

  it('keeps the server’s "too short" while the password is shorter than the policy says, and drops it once long enough', async () => {
    api.on(
      'POST /api/v1/account/changePassword',
      json(400, {
        code: 'errors.validation',
        message: 'The request is not valid',
        errors: [{ field: 'newPassword', code: 'password.too_short', message: 'The password must have at least 16 characters' }],
      }),
    );
    type(await atExpiredPasswordStep(), 'Abcdefgh1234');
    type(screen.getByLabelText('Confirm password'), 'Abcdefgh1234');
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('The password must have at least 16 characters')).toBeInTheDocument();

    type(screen.getByLabelText('New password'), 'Abcdefgh123456');
    expect(screen.getByText('The password must have at least 16 characters'), 'still shorter than 16').toBeInTheDocument();
    type(screen.getByLabelText('New password'), 'Abcdefgh12345678');
    await waitFor(() => expect(screen.queryByText('The password must have at least 16 characters')).not.toBeInTheDocument());
  });
});

describe('the strength of the new password', () => {
  const strengthLine = () => screen.queryByText(/^Strength:/);

  beforeEach(() => {
    api.on('GET /api/v1/config', json(200, { microsoftSignIn: false, policy: { ...POLICY, minStrength: 3 } }));
  });

  it('is shown as the user types, with the estimator’s reason while below the policy’s minimum; the button stays', async () => {
    const field = await atExpiredPasswordStep();
    expect(strengthLine(), 'nothing to estimate yet').toBeNull();

    type(field, 'Password1234!');
    const line = await screen.findByText(/^Strength: weak/, {}, { timeout: 15_000 });
    expect(line.textContent).toBe(
      'Strength: weak Too easy to guess. This is similar to a commonly used password. Add more words that are less common. Capitalize more than the first letter.',
    );
    expect(screen.getByRole('button', { name: 'Change Password' })).toBeEnabled();

    type(field, 'tuba-Lantern-9-orbit-calm');
    await waitFor(() => expect(strengthLine()?.textContent).toBe('Strength: strong'));
  });

  it('counts the user’s own name as guessable', async () => {
    type(await atExpiredPasswordStep(), 'Ana@client.example2024');
    await waitFor(() => expect(strengthLine()?.textContent).toMatch(/^Strength: (weak|fair) Too easy to guess\. There should not be any personal or page related data\./), { timeout: 15_000 });
  });

  it('is not estimated when the policy asks for no minimum strength', async () => {
    api.on('GET /api/v1/config', json(200, { microsoftSignIn: false, policy: { ...POLICY, minStrength: 0 } }));
    type(await atExpiredPasswordStep(), 'Password1234!');
    await waitFor(() => expect(screen.getByText('contain a digit').closest('li')?.textContent).toContain('(met)'));
    // The estimator is loaded by now (the tests above): an estimate would have come in milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(strengthLine()).toBeNull();
  });
});
