import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi, renderAccount } from '../test-utils';

describe('/account/accessDenied', () => {
  it('says access is denied and offers Home and Close session', async () => {
    renderAccount('accessDenied');

    expect(await screen.findByRole('heading', { name: 'Access is denied' })).toBeInTheDocument();
    expect(screen.getByText(/You do not have the permissions needed to open this page/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Close session' })).toHaveAttribute('href', '/api/v1/account/logout');
  });

  it('offers "Problems to access? Contact Us!" in a new tab when a support address is configured, and only then', async () => {
    const api = mockApi().on('GET /api/v1/config', json(200, { links: {} }));
    const { unmount } = renderAccount('accessDenied');
    await screen.findByRole('heading', { name: 'Access is denied' });
    await waitFor(() => expect(api.calls('/api/v1/config')).toHaveLength(1));
    expect(screen.queryByRole('link', { name: /Problems to access\? Contact Us!/ })).not.toBeInTheDocument();
    unmount();

    api.on('GET /api/v1/config', json(200, { links: { support: 'https://support.example.com/help' } }));
    renderAccount('accessDenied');
    const contact = await screen.findByRole('link', { name: /Problems to access\? Contact Us!/ });
    expect(contact).toHaveAttribute('href', 'https://support.example.com/help');
    expect(contact).toHaveAttribute('target', '_blank');
    expect(contact.getAttribute('rel')).toContain('noopener');
  });

  it('speaks the user’s language', async () => {
    renderAccount('accessDenied', { language: 'de' });
    expect(await screen.findByRole('heading', { name: 'Der Zugriff wird verweigert' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sitzung beenden' })).toBeInTheDocument();
  });
});

describe('/account', () => {
  it('shows the not-found page in the user’s language below /account for an unknown path', () => {
    renderAccount('nothing-here');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
