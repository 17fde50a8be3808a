import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage } from '../../test-utils';
import { choose, list, PAGE_TEST_TIMEOUT, sentTo, userRow } from '../../features/directory/test-helpers';
import { IdentifyAsTile } from './IdentifyAsTile';

const ENABLED = 'GET /api/v1/admin/dashboard/identyfyasEnabled';
const START = 'POST /api/v1/admin/dashboard/identifyAs/u-7';
const USERS = { 'GET /api/v1/admin/users': list([userRow({ id: 'u-7', userName: 'tom@example.com', firstName: 'Tom', lastName: 'Ray' })]) };
const LINK = 'https://id.example.com/api/v1/account/identifyAs/start?code=abc';

function renderTile(options: { roles?: string[]; enabled?: boolean; language?: 'en' | 'fr'; start?: Parameters<typeof jsonResponse> } = {}) {
  const leave = vi.fn();
  const rendered = renderPage(
    <ul>
      <IdentifyAsTile leave={leave} />
    </ul>,
    {
      roles: options.roles ?? ['God'],
      language: options.language,
      api: {
        [ENABLED]: { enabled: options.enabled ?? true, maxMinutes: 30 },
        [START]: () => jsonResponse(...(options.start ?? [{ redirectUrl: LINK }])),
        ...USERS,
      },
    },
  );
  return rendered.then((result) => ({ ...result, leave }));
}

describe('the Identify As tile', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('is offered to God when the deployment enables it, with its time limit', async () => {
    await renderTile();
    const tile = await screen.findByRole('button', { name: /^Identify As/ });
    expect(tile).toHaveTextContent('Sign in as another user (30 min at most)');
  });

  it('is not offered to God when the deployment does not enable it', async () => {
    const { fetchMock } = await renderTile({ enabled: false });
    await waitFor(() => expect(sentTo(fetchMock, ENABLED)).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /Identify As/ })).not.toBeInTheDocument();
  });

  it('is never offered to an administrator, who does not even ask', async () => {
    const { fetchMock } = await renderTile({ roles: ['Administrator'] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sentTo(fetchMock, ENABLED)).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Identify As/ })).not.toBeInTheDocument();
  });

  it('picks a user and, on confirm, sends the browser to the identity provider’s link', async () => {
    const { fetchMock, leave } = await renderTile();
    fireEvent.click(await screen.findByRole('button', { name: /^Identify As/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('for 30 min at most');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in as this user' }));
    expect(await within(dialog).findByText('User required')).toBeInTheDocument();
    expect(sentTo(fetchMock, START)).toHaveLength(0);

    await choose('User', 'tom@example.com (Tom Ray)', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in as this user' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith(LINK));
    expect(sentTo(fetchMock, START)).toHaveLength(1);
  });

  it('says why the API refuses, in the reader’s language, and stays', async () => {
    const refusal = { code: 'identifyAs.target_god', message: "Vous ne pouvez pas vous connecter en tant qu'un autre utilisateur God", errors: [] };
    const { leave } = await renderTile({ language: 'fr', start: [refusal, 403] });
    fireEvent.click(await screen.findByRole('button', { name: /^Identify As/ }));
    const dialog = await screen.findByRole('dialog');
    await choose('Utilisateur', 'tom@example.com (Tom Ray)', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Se connecter en tant que cet utilisateur' }));
    expect(await within(dialog).findByText(refusal.message)).toBeInTheDocument();
    expect(leave).not.toHaveBeenCalled();
  });
});
