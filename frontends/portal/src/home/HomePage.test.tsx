import { act, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { portalApi, type Application } from '../api/portal-api';
import type { PortalStore } from '../store/store';
import { leavePortal } from '../shell/navigation';
import { FakeAuth, app, createTestI18n, homeInfo, jsonResponse, makeUser, renderSignedIn, stubApi } from '../test-utils';
import HomePage from './HomePage';

vi.mock('../shell/navigation', () => ({ leavePortal: vi.fn() }));

const HOME_INFO = 'GET /api/v1/admin/applications/homeInfo';

let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
});

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.mocked(leavePortal).mockClear();
});

afterEach(() => {
  vi.useRealTimers();
});

function renderHome(items: Application[], options: { route?: string; area?: string; clientPortalAppId?: string | null } = {}) {
  stubApi({ [HOME_INFO]: homeInfo(items, options.clientPortalAppId ?? null) });
  const auth = new FakeAuth(makeUser({ area: options.area ?? 'Default' }));
  return renderSignedIn(<HomePage />, { i18n, auth, route: options.route ?? '/' });
}

/** Until homeInfo has answered and the page has started its one-second wait. */
async function homeInfoAnswered(store: PortalStore) {
  await vi.waitFor(() => expect(portalApi.endpoints.homeInfo.select()(store.getState()).status).toBe('fulfilled'));
  await act(async () => undefined);
}

async function waitOneSecond() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(1000);
  });
}

describe('HomePage', () => {
  it('says "Wait while redirect..." over fixed-size skeleton tiles while loading', async () => {
    renderHome([app({ id: 'crm', title: 'CRM' }), app({ id: 'erp', title: 'ERP' })]);

    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Jane Doe' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Wait while redirect...');
    expect(document.querySelectorAll('.home-tile--skeleton')).toHaveLength(4);
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows the tiles about one second after homeInfo answered', async () => {
    const { store } = renderHome([app({ id: 'erp', title: 'ERP' }), app({ id: 'crm', title: 'CRM', description: 'Customers and deals' })]);
    await homeInfoAnswered(store);
    expect(screen.getByRole('status')).toHaveTextContent('Wait while redirect...');

    await waitOneSecond();

    const links = await screen.findAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['CRMCustomers and deals', 'ERPERP description']);
    expect(links[0]).toHaveAttribute('href', 'https://crm.example.com/');
    expect(screen.queryByText('Wait while redirect...')).not.toBeInTheDocument();
    expect(leavePortal).not.toHaveBeenCalled();
  });

  it('sends a user with exactly one application to it after one second', async () => {
    // Time moves only when the test says so: 900 ms must not be enough.
    vi.useFakeTimers();
    const { store } = renderHome([
      app({ id: 'crm', title: 'CRM' }),
      app({ id: 'wiki', title: 'Wiki', hasAccess: false, publicUrl: 'https://wiki.example.com' }),
    ]);
    await homeInfoAnswered(store);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(leavePortal).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });

    expect(leavePortal).toHaveBeenCalledWith('https://crm.example.com/');
    expect(screen.getByRole('status')).toHaveTextContent('Wait while redirect...');
  });

  it('sends a customer without Identity Management to the client portal', async () => {
    const { store } = renderHome(
      [app({ id: 'crm', title: 'CRM' }), app({ id: 'cp', title: 'Client portal', privateUrl: 'https://clients.example.com/' })],
      { area: 'Customers', clientPortalAppId: 'cp' },
    );
    await homeInfoAnswered(store);
    expect(leavePortal).not.toHaveBeenCalled();
    await waitOneSecond();

    expect(leavePortal).toHaveBeenCalledWith('https://clients.example.com/');
  });

  it('lists prerelease applications only with ?prerelease', async () => {
    const items = [app({ id: 'crm', title: 'CRM' }), app({ id: 'erp', title: 'ERP' }), app({ id: 'beta', title: 'Beta', prerelease: true })];
    const first = renderHome(items);
    await homeInfoAnswered(first.store);
    await waitOneSecond();
    expect(await screen.findByRole('link', { name: /CRM/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Beta/ })).not.toBeInTheDocument();
    first.unmount();

    const second = renderHome(items, { route: '/?prerelease' });
    await homeInfoAnswered(second.store);
    await waitOneSecond();
    const beta = await screen.findByRole('link', { name: /Beta/ });
    expect(within(beta).getByText('Prerelease')).toBeInTheDocument();
  });

  it('offers the applications without access under "Ask us!", opening their public page in a new tab', async () => {
    const { store } = renderHome([
      app({ id: 'crm', title: 'CRM' }),
      app({ id: 'erp', title: 'ERP' }),
      app({ id: 'wiki', title: 'Wiki', hasAccess: false, publicUrl: 'https://wiki.example.com/about' }),
    ]);
    await homeInfoAnswered(store);
    await waitOneSecond();

    const askUs = await screen.findByRole('region', { name: 'Do you want to access these applications? Ask us!' });
    const wiki = within(askUs).getByRole('link', { name: /Wiki/ });
    expect(wiki).toHaveAttribute('href', 'https://wiki.example.com/about');
    expect(wiki).toHaveAttribute('target', '_blank');
    expect(wiki).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('tells a user without any application to contact the administrator', async () => {
    const { store } = renderHome([app({ id: 'wiki', title: 'Wiki', hasAccess: false, publicUrl: 'https://wiki.example.com' })]);
    await homeInfoAnswered(store);
    await waitOneSecond();

    expect(
      await screen.findByText('It seems that you do not have access to any application yet. Please contact your administrator.'),
    ).toBeInTheDocument();
    expect(leavePortal).not.toHaveBeenCalled();
  });

  it('welcomes with the profile name when first and last names are missing', () => {
    stubApi({ [HOME_INFO]: homeInfo([]) });
    renderSignedIn(<HomePage />, { i18n, auth: new FakeAuth(makeUser({ given_name: undefined, family_name: undefined, name: 'jdoe@example.com' })) });

    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome, jdoe@example.com');
  });

  it('reports a failed load as "An error ocurred" with the reason', async () => {
    stubApi({ [HOME_INFO]: () => jsonResponse({ code: 'errors.internal', message: 'Database unavailable' }, 500) });
    renderSignedIn(<HomePage />, { i18n });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An error ocurred');
    expect(alert).toHaveTextContent('Database unavailable');
  });
});
