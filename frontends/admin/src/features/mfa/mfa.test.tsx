import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../test-utils';
import { bodiesTo, bodyRows, dialogWith, list, PAGE_TEST_TIMEOUT, queriesTo, sentTo, type } from '../directory/test-helpers';
import type { MfaTenant } from './mfa-api';
import MfaConfigurationPage from './MfaConfigurationPage';
import { tenantRow } from '../tenants/test-data';

const TENANTS = 'GET /api/v1/admin/tenants';
const NAMESPACES = ['admin', 'directory', 'permissions'] as const;

/** A tenant of North, without MFA; `overrides` say the rest. */
const tenant = (overrides: Partial<MfaTenant> & Pick<MfaTenant, 'id' | 'title'>): MfaTenant => tenantRow(overrides);

const acme = tenant({ id: 't1', title: 'Acme' });
const beta = tenant({ id: 't2', title: 'Beta', parentId: 't1', parentTitle: 'Acme', requiredTwoModeAuthentification: true });

const switchOf = (title: string) => screen.getByRole('switch', { name: `Require a second factor from the users of ${title}` });

/** The row of a tenant, to look its switches up in (a lookup by name over the whole page is slow). */
const rowOf = (title: string) => bodyRows().find((row) => within(row).queryByRole('link', { name: title }))!;
/** A tenant's two switches: the second factor, and phishing-resistant only. */
const switchesOf = (title: string) => {
  const row = within(rowOf(title));
  return {
    required: row.getByRole('switch', { name: `Require a second factor from the users of ${title}` }),
    phishing: row.getByRole('switch', { name: `Accept only phishing-resistant second factors (passkeys or Microsoft) from the users of ${title}` }),
  };
};

beforeEach(() => sessionStorage.clear());

describe('MfaConfigurationPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  function renderMfa(api: ApiRoutes = {}) {
    return renderPage(<MfaConfigurationPage />, {
      route: '/twomodeauth',
      namespaces: [...NAMESPACES],
      api: { [TENANTS]: list([acme, beta], 12), ...api },
    });
  }

  it('lists the tenants by title with their second-factor switch, searched and paged', async () => {
    const { fetchMock } = await renderMfa();

    expect(await screen.findByRole('heading', { level: 1, name: 'MFA Configuration' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Acme' })).toHaveAttribute('href', '/tenants/t1');
    expect(switchOf('Acme')).not.toBeChecked();
    expect(switchOf('Beta')).toBeChecked();
    expect(switchOf('Beta').closest('tr')).toHaveTextContent('Acme');
    expect(queriesTo(fetchMock, TENANTS)[0]).toEqual({ skip: '0', top: '10', orderBy: 'title asc' });

    type(screen.getByRole('searchbox', { name: 'Search' }), 'ac');
    await waitFor(() => expect(queriesTo(fetchMock, TENANTS).at(-1)).toMatchObject({ $search: 'ac', skip: '0' }));
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(queriesTo(fetchMock, TENANTS).at(-1)).toMatchObject({ $search: 'ac', skip: '10', top: '10' }));
  });

  it('requires a second factor once confirmed, and shows the tenant as the server now has it', async () => {
    const { fetchMock } = await renderMfa({
      'POST /api/v1/admin/tenants/twoModeAuth/t1': { id: 't1', title: 'Acme', requiredTwoModeAuthentification: true, phishingResistantOnly: false },
    });
    await screen.findByRole('link', { name: 'Acme' });

    fireEvent.click(switchOf('Acme'));
    const dialog = await dialogWith('Require a second factor from the users of Acme?');
    expect(sentTo(fetchMock, 'POST /api/v1/admin/tenants/twoModeAuth/t1')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Require' }));

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/tenants/twoModeAuth/t1')).toEqual([{ enable: true }]);
    await waitFor(() => expect(switchOf('Acme')).toBeChecked());
    expect(switchOf('Acme')).toBeEnabled();
    // The row changed from the answer: the list was not asked again.
    expect(sentTo(fetchMock, TENANTS)).toHaveLength(1);
  });

  it('stops requiring it once confirmed, with the opposite question', async () => {
    const { fetchMock } = await renderMfa({
      'POST /api/v1/admin/tenants/twoModeAuth/t2': { id: 't2', title: 'Beta', requiredTwoModeAuthentification: false, phishingResistantOnly: false },
    });
    await screen.findByRole('link', { name: 'Beta' });

    fireEvent.click(switchOf('Beta'));
    const dialog = await dialogWith('Stop requiring a second factor from the users of Beta?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop requiring' }));

    await waitFor(() => expect(sentTo(fetchMock, 'POST /api/v1/admin/tenants/twoModeAuth/t2')).toHaveLength(1));
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/tenants/twoModeAuth/t2')).toEqual([{ enable: false }]);
    await waitFor(() => expect(switchOf('Beta')).not.toBeChecked());
    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
  });

  it('changes nothing when the question is cancelled', async () => {
    const { fetchMock } = await renderMfa();
    await screen.findByRole('link', { name: 'Acme' });

    fireEvent.click(switchOf('Acme'));
    const dialog = await dialogWith('Require a second factor from the users of Acme?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(switchOf('Acme')).not.toBeChecked();
    expect(sentTo(fetchMock, 'POST /api/v1/admin/tenants/twoModeAuth/t1')).toHaveLength(0);
  });

  it('puts the switch back and shows the reason when the server refuses', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { fetchMock } = await renderMfa({
      'POST /api/v1/admin/tenants/twoModeAuth/t1': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await screen.findByRole('link', { name: 'Acme' });

    fireEvent.click(switchOf('Acme'));
    fireEvent.click(within(await dialogWith('Require a second factor from the users of Acme?')).getByRole('button', { name: 'Require' }));

    // While the change is on its way the switch shows it, and cannot be pressed again.
    await waitFor(() => expect(sentTo(fetchMock, 'POST /api/v1/admin/tenants/twoModeAuth/t1')).toHaveLength(1));
    await waitFor(() => expect(switchOf('Acme')).toBeChecked());
    expect(switchOf('Acme')).toBeDisabled();

    answer(jsonResponse({ code: 'errors.not_found', message: 'This tenant does not exist' }, 404));

    expect(await screen.findByText('This tenant does not exist')).toBeInTheDocument();
    await waitFor(() => expect(switchOf('Acme')).not.toBeChecked());
    expect(switchOf('Acme')).toBeEnabled();
    expect(screen.queryByText('Changes have been saved')).not.toBeInTheDocument();
  });

  it('shows the spec’s text when the caller may not change it', async () => {
    await renderMfa({ 'POST /api/v1/admin/tenants/twoModeAuth/t1': jsonResponse({ code: 'errors.forbidden', message: 'Forbidden' }, 403) });
    await screen.findByRole('link', { name: 'Acme' });

    fireEvent.click(switchOf('Acme'));
    fireEvent.click(within(await dialogWith('Require a second factor from the users of Acme?')).getByRole('button', { name: 'Require' }));

    expect(await screen.findByText("You don't have permission to perform this action")).toBeInTheDocument();
    await waitFor(() => expect(switchOf('Acme')).not.toBeChecked());
  });

  describe('phishing-resistant only', () => {
    const gamma = tenant({ id: 't3', title: 'Gamma', requiredTwoModeAuthentification: true, phishingResistantOnly: true });
    const POST_T1 = 'POST /api/v1/admin/tenants/twoModeAuth/t1';
    const POST_T3 = 'POST /api/v1/admin/tenants/twoModeAuth/t3';
    const renderWithGamma = (api: ApiRoutes = {}) => renderMfa({ [TENANTS]: list([acme, beta, gamma], 3), ...api });

    it('shows each tenant’s rule beside its second-factor switch', async () => {
      await renderWithGamma();
      await screen.findByRole('link', { name: 'Gamma' });

      expect(switchesOf('Acme').phishing).not.toBeChecked();
      expect(switchesOf('Beta').phishing).not.toBeChecked();
      expect(switchesOf('Gamma').phishing).toBeChecked();
      expect(switchesOf('Gamma').required).toBeChecked();
    });

    it('accepts only phishing-resistant factors once confirmed, requiring a second factor with it', async () => {
      const { fetchMock } = await renderWithGamma({ [POST_T1]: { id: 't1', title: 'Acme', requiredTwoModeAuthentification: true, phishingResistantOnly: true } });
      await screen.findByRole('link', { name: 'Acme' });

      fireEvent.click(switchesOf('Acme').phishing);
      const dialog = await dialogWith('Accept only phishing-resistant second factors from the users of Acme?');
      expect(dialog).toHaveTextContent('A second factor becomes required too.');
      expect(sentTo(fetchMock, POST_T1)).toHaveLength(0);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Accept only these' }));

      expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
      expect(await bodiesTo(fetchMock, POST_T1)).toEqual([{ enable: true, phishingResistantOnly: true }]);
      await waitFor(() => expect(switchesOf('Acme').phishing).toBeChecked());
      expect(switchesOf('Acme').required).toBeChecked();
      expect(switchesOf('Acme').phishing).toBeEnabled();
    });

    it('accepts every factor again once confirmed, the second factor still required', async () => {
      const { fetchMock } = await renderWithGamma({ [POST_T3]: { id: 't3', title: 'Gamma', requiredTwoModeAuthentification: true, phishingResistantOnly: false } });
      await screen.findByRole('link', { name: 'Gamma' });

      fireEvent.click(switchesOf('Gamma').phishing);
      fireEvent.click(within(await dialogWith('Accept every second factor from the users of Gamma again?')).getByRole('button', { name: 'Accept every factor' }));

      await waitFor(() => expect(sentTo(fetchMock, POST_T3)).toHaveLength(1));
      expect(await bodiesTo(fetchMock, POST_T3)).toEqual([{ enable: true, phishingResistantOnly: false }]);
      await waitFor(() => expect(switchesOf('Gamma').phishing).not.toBeChecked());
      expect(switchesOf('Gamma').required).toBeChecked();
    });

    it('says that stopping the second factor stops phishing-resistant only too, and shows both off', async () => {
      const { fetchMock } = await renderWithGamma({ [POST_T3]: { id: 't3', title: 'Gamma', requiredTwoModeAuthentification: false, phishingResistantOnly: false } });
      await screen.findByRole('link', { name: 'Gamma' });

      fireEvent.click(switchesOf('Gamma').required);
      const dialog = await dialogWith('Stop requiring a second factor from the users of Gamma?');
      expect(dialog).toHaveTextContent('Phishing-resistant only is turned off with it.');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Stop requiring' }));

      await waitFor(() => expect(sentTo(fetchMock, POST_T3)).toHaveLength(1));
      expect(await bodiesTo(fetchMock, POST_T3)).toEqual([{ enable: false }]);
      await waitFor(() => expect(switchesOf('Gamma').phishing).not.toBeChecked());
      expect(switchesOf('Gamma').required).not.toBeChecked();
    });

    it('does not mention it when stopping the second factor of a tenant without it', async () => {
      await renderWithGamma();
      await screen.findByRole('link', { name: 'Beta' });

      fireEvent.click(switchesOf('Beta').required);
      const dialog = await dialogWith('Stop requiring a second factor from the users of Beta?');
      expect(dialog).not.toHaveTextContent('Phishing-resistant only');
    });

    it('changes nothing when the question is cancelled', async () => {
      const { fetchMock } = await renderWithGamma();
      await screen.findByRole('link', { name: 'Acme' });

      fireEvent.click(switchesOf('Acme').phishing);
      fireEvent.click(within(await dialogWith('Accept only phishing-resistant second factors from the users of Acme?')).getByRole('button', { name: 'Cancel' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(switchesOf('Acme').phishing).not.toBeChecked();
      expect(switchesOf('Acme').required).not.toBeChecked();
      expect(sentTo(fetchMock, POST_T1)).toHaveLength(0);
    });

    it('puts both switches back and shows the reason when the server refuses', async () => {
      let answer: (response: Response) => void = () => undefined;
      const { fetchMock } = await renderWithGamma({ [POST_T1]: () => new Promise<Response>((resolve) => (answer = resolve)) });
      await screen.findByRole('link', { name: 'Acme' });

      fireEvent.click(switchesOf('Acme').phishing);
      fireEvent.click(within(await dialogWith('Accept only phishing-resistant second factors from the users of Acme?')).getByRole('button', { name: 'Accept only these' }));

      // On its way, the change shows on both switches, neither of which can be pressed.
      await waitFor(() => expect(sentTo(fetchMock, POST_T1)).toHaveLength(1));
      await waitFor(() => expect(switchesOf('Acme').phishing).toBeChecked());
      expect(switchesOf('Acme').required).toBeChecked();
      expect(switchesOf('Acme').required).toBeDisabled();

      answer(jsonResponse({ code: 'errors.forbidden', message: 'Forbidden' }, 403));

      expect(await screen.findByText("You don't have permission to perform this action")).toBeInTheDocument();
      await waitFor(() => expect(switchesOf('Acme').phishing).not.toBeChecked());
      expect(switchesOf('Acme').required).not.toBeChecked();
      expect(switchesOf('Acme').phishing).toBeEnabled();
    });
  });
});
