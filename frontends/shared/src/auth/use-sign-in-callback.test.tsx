import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { completeSignInOnce, useSignInCallback } from './use-sign-in-callback';

function Callback({ complete }: { complete: (url: string) => Promise<string> }) {
  const error = useSignInCallback(complete);
  return <p>{error ?? 'signing in'}</p>;
}

describe('useSignInCallback', () => {
  it('redeems the code once and goes to the page to return to', async () => {
    window.history.replaceState(null, '', '/admin/auth/callback?code=once&state=s');
    const complete = vi.fn(async () => '/users?page=2');

    render(
      <MemoryRouter initialEntries={['/auth/callback']}>
        <Routes>
          <Route path="/auth/callback" element={<Callback complete={complete} />} />
          <Route path="/users" element={<p>users page</p>} />
        </Routes>
      </MemoryRouter>,
    );

    expect(await screen.findByText('users page')).toBeInTheDocument();
    expect(complete).toHaveBeenCalledTimes(1);
    expect(complete).toHaveBeenCalledWith('http://localhost:3000/admin/auth/callback?code=once&state=s');
    // A second render of the same callback URL (StrictMode) shares the first attempt.
    await completeSignInOnce(window.location.href, complete);
    expect(complete).toHaveBeenCalledTimes(1);
  });

  it('returns the failure to show', async () => {
    window.history.replaceState(null, '', '/auth/callback?code=used');
    render(
      <MemoryRouter initialEntries={['/auth/callback']}>
        <Callback complete={async () => Promise.reject(new Error('invalid_grant'))} />
      </MemoryRouter>,
    );

    expect(await screen.findByText('invalid_grant')).toBeInTheDocument();
  });
});
