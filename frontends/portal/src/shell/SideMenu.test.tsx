import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { portalApi } from '../api/portal-api';
import { FakeAuth, createTestI18n, homeInfo, makeUser, myProfile, renderSignedIn, stubApi } from '../test-utils';
import { selectedMenuKey } from './menu';
import { ShellLayout } from './ShellLayout';

let i18n: I18n;

beforeEach(async () => {
  i18n = await createTestI18n('en');
});

function Where() {
  const location = useLocation();
  return <p>At {`${location.pathname}${location.search}`}</p>;
}

function renderShell(options: { roles?: string[]; tokenRoles?: string[]; route?: string } = {}) {
  stubApi({
    'GET /api/v1/applications/status/portal': new Response('Running'),
    'GET /api/v1/admin/applications/homeInfo': homeInfo([]),
    'GET /api/v1/profile': myProfile({ roles: options.roles ?? [] }),
  });
  return renderSignedIn(
    <Routes>
      <Route element={<ShellLayout />}>
        <Route path="*" element={<Where />} />
      </Route>
    </Routes>,
    { i18n, route: options.route, auth: new FakeAuth(makeUser({ roles: options.tokenRoles })) },
  );
}

/** The portal menu's entries once the profile (and its roles) has come. */
async function menuLinks(options: Parameters<typeof renderShell>[0] = {}): Promise<string[]> {
  const { store } = renderShell(options);
  await waitFor(() => expect(portalApi.endpoints.myProfile.select()(store.getState()).isSuccess).toBe(true));
  const menu = within(screen.getByRole('navigation', { name: 'Portal menu' }));
  return menu.getAllByRole('link').map((link) => `${link.textContent} ${link.getAttribute('href')}`);
}

const EVERYONE = ['Home /', 'Profile /profile', 'Exercise rights /rights', 'Disclaimers /disclaimers'];

describe('portal menu', () => {
  it('gives every user Home, Profile, Exercise rights and Disclaimers, in the spec order', async () => {
    expect(await menuLinks({ roles: ['User'] })).toEqual(EVERYONE);
  });

  it('adds My Clients for an IdentityConsultant or an Administrator', async () => {
    for (const roles of [['IdentityConsultant'], ['Administrator']]) {
      const links = await menuLinks({ roles });
      expect(links, roles[0]).toEqual([...EVERYONE.slice(0, 3), 'My Clients /clients', 'Disclaimers /disclaimers']);
      cleanup();
    }
  });

  it('adds Service Manager for a ServiceManager', async () => {
    expect(await menuLinks({ roles: ['ServiceManager'] })).toEqual([...EVERYONE.slice(0, 3), 'Service Manager /service-manager', 'Disclaimers /disclaimers']);
  });

  it('gives a user holding every role the whole menu, once each', async () => {
    expect(await menuLinks({ roles: ['Administrator', 'IdentityConsultant', 'ServiceManager'], tokenRoles: ['Administrator'] })).toEqual([
      ...EVERYONE.slice(0, 3),
      'My Clients /clients',
      'Service Manager /service-manager',
      'Disclaimers /disclaimers',
    ]);
  });

  it('takes the roles of the ID token as well', async () => {
    expect(await menuLinks({ tokenRoles: ['ServiceManager'] })).toContain('Service Manager /service-manager');
  });

  it('names the entries in the user’s language, none of them marked "Soon" any more', async () => {
    i18n = await createTestI18n('fr');
    renderShell({ roles: ['Administrator', 'ServiceManager'] });
    const menu = within(screen.getByRole('navigation', { name: 'Menu du portail' }));

    expect(await menu.findByRole('link', { name: 'Mes clients' })).not.toHaveAccessibleDescription();
    expect(menu.getByRole('link', { name: 'Gestionnaire de services' })).not.toHaveAccessibleDescription();
    expect(menu.queryByText('Bientôt')).not.toBeInTheDocument();
  });

  it('keeps the query string when going to an entry, and marks the current one', async () => {
    renderShell({ route: '/rigths?prerelease' });
    const menu = within(screen.getByRole('navigation', { name: 'Portal menu' }));
    expect(menu.getByRole('link', { name: 'Exercise rights' })).toHaveAttribute('href', '/rights?prerelease');
    expect(menu.getByRole('link', { name: 'Exercise rights' }).closest('li')).toHaveClass('ant-menu-item-selected');

    fireEvent.click(menu.getByRole('link', { name: 'Disclaimers' }));

    expect(await screen.findByText('At /disclaimers?prerelease')).toBeInTheDocument();
  });

  it('folds to its icons and unfolds with its button', () => {
    renderShell();
    const toggle = screen.getByRole('button', { name: 'Collapse the menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    fireEvent.click(toggle);

    expect(screen.getByRole('button', { name: 'Expand the menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('navigation', { name: 'Portal menu' })).toHaveClass('side-menu--collapsed');
  });

  it('moves into the hamburger drawer at 768 px or less, and closes it once an entry is picked', async () => {
    window.innerWidth = 768;
    renderShell({ roles: ['IdentityConsultant'] });
    expect(screen.queryByRole('navigation', { name: 'Portal menu' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Open the menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    const menu = within(within(drawer).getByRole('navigation', { name: 'Portal menu' }));
    fireEvent.click(await menu.findByRole('link', { name: 'My Clients' }));

    expect(await screen.findByText('At /clients')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument());
  });
});

describe('selectedMenuKey', () => {
  it('finds the entry of a path by its first segment', () => {
    expect(selectedMenuKey('/')).toBe('home');
    expect(selectedMenuKey('/profile/anything')).toBe('profile');
    expect(selectedMenuKey('/rigths')).toBe('rights');
    expect(selectedMenuKey('/service-manager')).toBe('serviceManager');
    expect(selectedMenuKey('/nowhere')).toBeUndefined();
  });
});
