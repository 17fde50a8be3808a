import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeAuth, createTestI18n, homeInfo, jsonResponse, makeUser, renderSignedIn, stubApi } from '../../test-utils';
import { leavePortal } from '../navigation';
import { ShellLayout } from '../ShellLayout';

vi.mock('../navigation', () => ({ leavePortal: vi.fn() }));

const END = 'POST /api/v1/account/identifyAs/end';
const ACTED = { act: { sub: 'god-1', name: 'Grace Odin' } };

async function renderShell(options: { auth?: FakeAuth; language?: 'en' | 'fr'; end?: Response } = {}) {
  const fetchMock = stubApi({
    'GET /api/v1/applications/status/portal': new Response('Running'),
    'GET /api/v1/admin/applications/homeInfo': homeInfo([]),
    [END]: () => options.end ?? jsonResponse({ success: true, errors: [], redirectTo: '/', changePassword: false, twoAuthentificationRequired: false, token: null }),
  });
  const auth = options.auth ?? new FakeAuth(makeUser(ACTED));
  renderSignedIn(
    <Routes>
      <Route element={<ShellLayout />}>
        <Route index element={<p>Home content</p>} />
      </Route>
    </Routes>,
    { i18n: await createTestI18n(options.language ?? 'en'), auth },
  );
  return { fetchMock, auth };
}

const endCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.map(([input]) => input as Request).filter((request) => request.method === 'POST' && request.url.endsWith('/api/v1/account/identifyAs/end'));

beforeEach(() => vi.mocked(leavePortal).mockReset());

describe('the Identify As banner', () => {
  it('is not shown to a user signed in as themself', async () => {
    await renderShell({ auth: new FakeAuth(makeUser()) });
    expect(await screen.findByText('Home content')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'End' })).not.toBeInTheDocument();
    expect(screen.queryByText(/on behalf of/)).not.toBeInTheDocument();
  });

  it('says across the top who is signed in on whose behalf', async () => {
    await renderShell();
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('You are signed in as Jane Doe on behalf of Grace Odin');
    expect(banner.compareDocumentPosition(screen.getByText('Home content')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('ends it with the session’s token, then leaves through the sign-out', async () => {
    const { fetchMock, auth } = await renderShell();
    fireEvent.click(await screen.findByRole('button', { name: 'End' }));
    await waitFor(() => expect(auth.signOut).toHaveBeenCalledTimes(1));
    const [request] = endCalls(fetchMock);
    expect(request!.headers.get('authorization')).toMatch(/^DPoP \S+/);
    expect(leavePortal).not.toHaveBeenCalled();
  });

  it('goes where the provider said when the sign-out cannot start', async () => {
    const auth = new FakeAuth(makeUser(ACTED));
    auth.signOut.mockRejectedValueOnce(new Error('offline'));
    await renderShell({ auth });
    fireEvent.click(await screen.findByRole('button', { name: 'End' }));
    await waitFor(() => expect(leavePortal).toHaveBeenCalledWith('/'));
  });

  it('says why ending failed, and stays', async () => {
    const { auth } = await renderShell({ end: jsonResponse({ success: false, errors: ['You are not signed in on behalf of another user'], code: 'identifyAs.not_impersonating' }, 409) });
    fireEvent.click(await screen.findByRole('button', { name: 'End' }));
    expect(await screen.findByText(/not signed in on behalf of another user/)).toBeInTheDocument();
    expect(auth.signOut).not.toHaveBeenCalled();
  });

  it('is translated', async () => {
    await renderShell({ language: 'fr' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Vous êtes connecté en tant que Jane Doe pour le compte de Grace Odin');
    expect(screen.getByRole('button', { name: 'Terminer' })).toBeInTheDocument();
  });
});
