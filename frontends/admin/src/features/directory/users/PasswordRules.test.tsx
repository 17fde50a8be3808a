import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../../test-utils';
import { PAGE_TEST_TIMEOUT } from '../test-helpers';
import { PasswordRules } from './PasswordRules';

const POLICY = 'GET /api/v1/admin/policy';
const items = () => screen.getAllByRole('listitem').map((item) => [item.textContent?.trim(), item.getAttribute('data-met')]);

describe('PasswordRules', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('lists the rules of the policy in force, checked as the administrator types', async () => {
    const policy = { minLength: 16, requireUppercase: true, requireLowercase: true, requireDigit: true, requireSymbol: false, historySize: 7, maxAgeDays: 30 };
    await renderPage(<PasswordRules password="Abcdefgh123456" />, { api: { [POLICY]: policy } });

    await waitFor(() => expect(screen.getByText('at least 16 characters')).toBeInTheDocument());
    expect(items()).toEqual([
      ['at least 16 characters', 'false'],
      ['an uppercase letter', 'true'],
      ['a lowercase letter', 'true'],
      ['a number', 'true'],
    ]);
    expect(screen.getByText('It must be changed every 30 days.')).toBeInTheDocument();
  });

  it('says nothing of rotation when passwords do not expire', async () => {
    const policy = { minLength: 12, requireUppercase: true, requireLowercase: true, requireDigit: true, requireSymbol: true, historySize: 7, maxAgeDays: 0 };
    await renderPage(<PasswordRules password="" />, { api: { [POLICY]: policy } });
    // Shown with the defaults at first, gone once the policy in force is read.
    await waitFor(() => expect(screen.queryByText(/must be changed every/)).not.toBeInTheDocument());
    expect(screen.getByText('a symbol')).toBeInTheDocument();
  });

  it('shows the strength of the typed password, and why it is too easy to guess below the policy’s minimum', async () => {
    const policy = { minLength: 12, requireUppercase: true, requireLowercase: true, requireDigit: true, requireSymbol: true, historySize: 7, maxAgeDays: 90, minStrength: 3 };
    await renderPage(<PasswordRules password="Jane.Doe2024!" userInputs={['jane.doe', 'jane.doe@example.com', 'Jane', null]} />, { api: { [POLICY]: policy } });
    const line = await screen.findByText(/^Strength:/, {}, { timeout: 15_000 });
    expect(line.textContent).toBe(
      'Strength: fair Too easy to guess. There should not be any personal or page related data. Add more words that are less common.',
    );
    expect(items().every(([, met]) => met === 'true'), 'every character rule is met').toBe(true);
  });

  it('says a strong password is strong, without a reason', async () => {
    const policy = { minLength: 12, requireUppercase: true, requireLowercase: true, requireDigit: true, requireSymbol: true, historySize: 7, maxAgeDays: 90, minStrength: 3 };
    await renderPage(<PasswordRules password="tuba-Lantern-9-orbit-calm" userInputs={['jane.doe']} />, { api: { [POLICY]: policy } });
    expect((await screen.findByText(/^Strength:/, {}, { timeout: 15_000 })).textContent).toBe('Strength: strong');
  });

  it('shows the default policy while the one in force cannot be read', async () => {
    await renderPage(<PasswordRules password="" />);
    expect(await screen.findByText('at least 12 characters')).toBeInTheDocument();
    expect(screen.getByText('It must be changed every 90 days.')).toBeInTheDocument();
  });
});
