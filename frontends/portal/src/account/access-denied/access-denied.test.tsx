import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAccount } from '../test-utils';

describe('/account/accessDenied', () => {
  it('says access is denied and offers Home and Close session', async () => {
    renderAccount('accessDenied');

    expect(await screen.findByRole('heading', { name: 'Access is denied' })).toBeInTheDocument();
    expect(screen.getByText(/You do not have the permissions needed to open this page/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Close session' })).toHaveAttribute('href', '/api/v1/account/logout');
  });

  it('speaks the user’s language', async () => {
    renderAccount('accessDenied', { language: 'de' });
    expect(await screen.findByRole('heading', { name: 'Der Zugriff wird verweigert' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sitzung beenden' })).toBeInTheDocument();
  });
});

describe('/account', () => {
  it('shows the French not-found page below /account for an unknown path', () => {
    renderAccount('nothing-here');
    expect(screen.getByRole('heading', { name: 'Page introuvable' })).toBeInTheDocument();
  });
});
