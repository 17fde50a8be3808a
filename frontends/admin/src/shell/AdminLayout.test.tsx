import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderApp, type Namespace } from '../test-utils';

async function menuLinks(roles: string[]) {
  await renderApp({ roles });
  await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Admin' });
  const menu = within(screen.getByRole('navigation', { name: 'Main navigation' }));
  return menu.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
}

const ADMINISTRATOR_MENU = [
  ['Home', '/admin'],
  ['Users', '/admin/users'],
  ['Groups', '/admin/groups'],
  ['Applications', '/admin/applications'],
  ['Logs', '/admin/logs'],
  ['Areas', '/admin/areas'],
  ['Tenants', '/admin/tenants'],
  ['Permissions', '/admin/permissions'],
  ['Personal Access Tokens', '/admin/pats'],
  ['MFA Configuration', '/admin/twomodeauth'],
  ['Rights requests', '/admin/rightsRequests'],
  ['Webhooks', '/admin/webhooks'],
];

/** The Logs page ready to show at once (its chunk and phrases fetched, its first list answered): the folding tests go there. */
const LOGS_READY = {
  namespaces: ['admin', 'directory', 'logs'] as Namespace[],
  api: { 'GET /api/v1/admin/logs/authenticationlogs': { items: [], count: 0 } },
};

describe('side menu', () => {
  it('gives an Administrator every entry but Security Configuration, in the spec order', async () => {
    expect(await menuLinks(['Administrator'])).toEqual(ADMINISTRATOR_MENU);
  });

  it('gives God every Administrator entry and Security Configuration', async () => {
    expect(await menuLinks(['God'])).toEqual([...ADMINISTRATOR_MENU, ['Security Configuration', '/admin/securityConfig']]);
  });

  it('gives an AreaAdministrator who is also God the whole menu, once each', async () => {
    expect(await menuLinks(['AreaAdministrator', 'God'])).toEqual([
      ...ADMINISTRATOR_MENU,
      ['Security Configuration', '/admin/securityConfig'],
    ]);
  });

  it.each([
    [['AreaAdministrator'], ['Home', 'Users', 'Groups', 'Logs', 'Areas', 'Tenants', 'Permissions']],
    [['TenantAdministrator'], ['Home', 'Users', 'Groups', 'Applications', 'Logs', 'Areas', 'Tenants', 'Permissions']],
    [['Manager'], ['Home', 'Logs', 'Areas', 'Tenants', 'Permissions']],
    [['Manager', 'AreaAdministrator', 'IdentityConsultant'], ['Home', 'Users', 'Groups', 'Logs', 'Areas', 'Tenants', 'Permissions']],
  ])('gives %j the entries of the pages the API opens to them, and no other', async (roles, entries) => {
    expect((await menuLinks(roles)).map(([label]) => label)).toEqual(entries);
  });

  it('marks no entry as coming soon: every screen of the menu is built, Logs included', async () => {
    await renderApp({ roles: ['God'], language: 'de' });
    await screen.findByRole('heading', { level: 1, name: 'Willkommen, Ada Admin' });
    const menu = within(screen.getByRole('navigation', { name: 'Hauptnavigation' }));

    for (const name of ['Startseite', 'Benutzer', 'Gruppen', 'Anwendungen', 'Protokolle', 'Bereiche', 'Einheiten', 'Berechtigungen', 'Persönliche Zugriffstoken', 'MFA-Konfiguration', 'Webhooks', 'Sicherheitskonfiguration']) {
      expect(menu.getByRole('link', { name })).not.toHaveAccessibleDescription();
    }
    expect(menu.queryByText('Demnächst')).not.toBeInTheDocument();
  });

  it('lets long French and German labels wrap in the open menu rather than cutting them off', () => {
    const shellCss = readFileSync(`${import.meta.dirname}/shell.css`, 'utf8');
    const rule = (selector: string) => {
      const start = shellCss.indexOf(`${selector} {`);
      expect(start, selector).toBeGreaterThanOrEqual(0);
      return shellCss.slice(start, shellCss.indexOf('}', start));
    };
    expect(rule('.admin-shell__sider .ant-menu-inline .ant-menu-item')).toMatch(/height: auto;[\s\S]*white-space: normal;/);
    expect(rule('.admin-shell__sider .ant-menu-inline .ant-menu-title-content')).toMatch(/overflow: visible;[\s\S]*white-space: normal;[\s\S]*text-overflow: clip;/);
  });

  it('wraps menu labels between words, hyphenating a long word in the page’s language rather than splitting it anywhere, and keeps the open menu in place', () => {
    const shellCss = readFileSync(`${import.meta.dirname}/shell.css`, 'utf8');
    const label = shellCss.slice(shellCss.indexOf('.admin-shell__menu-label {'), shellCss.indexOf('}', shellCss.indexOf('.admin-shell__menu-label {')));
    expect(label).toMatch(/overflow-wrap: normal;[\s\S]*hyphens: auto;/);
    expect(shellCss).not.toMatch(/anywhere|break-all/);
    const wide = shellCss.slice(shellCss.indexOf('@media (min-width: 992px)'));
    expect(wide.slice(0, wide.indexOf('}\n}'))).toMatch(/\.admin-shell__sider \{[\s\S]*position: sticky;[\s\S]*top: 0;[\s\S]*height: 100vh;/);
  });

  it('goes to the page of an entry', async () => {
    await renderApp();
    const menu = within(await screen.findByRole('navigation', { name: 'Main navigation' }));

    fireEvent.click(menu.getByRole('link', { name: 'Tenants' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Tenants' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/admin/tenants');
  });

  it('folds away on a narrow screen and opens with the header button', async () => {
    window.innerWidth = 600;
    await renderApp(LOGS_READY);
    await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Admin' });

    const toggle = screen.getByRole('button', { name: 'Expand the menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(document.getElementById('admin-side-menu')).toHaveClass('ant-layout-sider-collapsed');

    fireEvent.click(toggle);

    expect(screen.getByRole('button', { name: 'Collapse the menu' })).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('admin-side-menu')).not.toHaveClass('ant-layout-sider-collapsed');

    // Picking a page folds it again.
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('link', { name: 'Logs' }));
    await screen.findByRole('heading', { level: 1, name: 'Logs' });
    expect(document.getElementById('admin-side-menu')).toHaveClass('ant-layout-sider-collapsed');
  });

  it('stays open on a wide screen, and stays folded there once the user folds it', async () => {
    await renderApp(LOGS_READY);
    await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Admin' });

    const toggle = screen.getByRole('button', { name: 'Collapse the menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('admin-side-menu')).not.toHaveClass('ant-layout-sider-collapsed');

    fireEvent.click(toggle);
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('link', { name: 'Logs' }));
    await screen.findByRole('heading', { level: 1, name: 'Logs' });

    expect(document.getElementById('admin-side-menu')).toHaveClass('ant-layout-sider-collapsed');
  });
});

describe('header', () => {
  it("shows the user's name and signs out through the provider", async () => {
    const { auth } = await renderApp({ me: { firstName: 'Grace', lastName: 'Hopper' } });
    const header = within(await screen.findByRole('banner'));

    expect(header.getByText('Grace Hopper')).toBeInTheDocument();
    fireEvent.click(header.getByRole('button', { name: 'Sign out' }));

    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it('offers English and French, and switches the whole console', async () => {
    await renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Admin' });

    fireEvent.click(screen.getByRole('button', { name: 'Language: English' }));
    const options = await screen.findAllByRole('menuitem', { name: /English|Français|Español|Deutsch|Italiano|Português/ });
    expect(options.map((option) => option.textContent)).toEqual(['English', 'Français']);

    fireEvent.click(screen.getByRole('menuitem', { name: 'Français' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Bienvenue, Ada Admin' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Utilisateurs' })).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement.lang).toBe('fr'));
  });
});
