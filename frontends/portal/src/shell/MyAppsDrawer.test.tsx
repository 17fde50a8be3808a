import { screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Application } from '../api/portal-api';
import { app, createTestI18n, homeInfo, renderSignedIn, stubApi } from '../test-utils';
import { MyAppsDrawer } from './MyAppsDrawer';

let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
});

function renderDrawer(items: Application[]) {
  stubApi({ 'GET /api/v1/admin/applications/homeInfo': homeInfo(items) });
  return renderSignedIn(<MyAppsDrawer open onClose={() => undefined} currentAppId="portal" />, { i18n });
}

async function appList() {
  const drawer = await screen.findByRole('dialog', { name: 'My Apps' });
  return within(drawer).findByRole('list', { name: 'My Apps' });
}

describe('MyAppsDrawer', () => {
  it('lists the applications sorted by title in one column up to four', async () => {
    renderDrawer([app({ id: 'erp', title: 'ERP' }), app({ id: 'crm', title: 'CRM' }), app({ id: 'bi', title: 'BI' }), app({ id: 'hr', title: 'HR' })]);

    const list = await appList();
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(['BI', 'CRM', 'ERP', 'HR']);
    expect(list).toHaveAttribute('data-columns', '1');
    expect(within(list).getByRole('link', { name: 'CRM' })).toHaveAttribute('href', 'https://crm.example.com/');
  });

  it('switches to two columns above four applications', async () => {
    renderDrawer(['A', 'B', 'C', 'D', 'E'].map((title) => app({ id: title.toLowerCase(), title })));

    expect(await appList()).toHaveAttribute('data-columns', '2');
  });

  it('marks favourites with a heart', async () => {
    renderDrawer([app({ id: 'crm', title: 'CRM', isUserFavorite: true }), app({ id: 'erp', title: 'ERP' })]);

    const list = await appList();
    expect(within(within(list).getByRole('link', { name: /CRM/ })).getByRole('img', { name: 'Favourite' })).toBeInTheDocument();
    expect(within(within(list).getByRole('link', { name: 'ERP' })).queryByRole('img', { name: 'Favourite' })).not.toBeInTheDocument();
  });

  it('offers the applications to ask for in their own section', async () => {
    renderDrawer([app({ id: 'crm', title: 'CRM' }), app({ id: 'wiki', title: 'Wiki', hasAccess: false, publicUrl: 'https://wiki.example.com/' })]);

    const section = await screen.findByRole('region', { name: 'Do you want to access these applications? Ask us!' });
    const wiki = within(section).getByRole('link', { name: /Wiki/ });
    expect(wiki).toHaveAttribute('href', 'https://wiki.example.com/');
    expect(wiki).toHaveAttribute('target', '_blank');
    expect(within(await appList()).queryByRole('link', { name: /Wiki/ })).not.toBeInTheDocument();
  });

  it('lists Identity Management only when homeInfo gives it to an Administrator', async () => {
    const identity = app({ id: '1', title: 'Identity Management', privateUrl: 'http://localhost:3000/admin' });
    const first = renderDrawer([identity, app({ id: 'crm', title: 'CRM' })]);
    expect(within(await appList()).getByRole('link', { name: 'Identity Management' })).toHaveAttribute('href', 'http://localhost:3000/admin');
    first.unmount();

    renderDrawer([app({ id: 'crm', title: 'CRM' })]);
    expect(within(await appList()).queryByRole('link', { name: 'Identity Management' })).not.toBeInTheDocument();
  });

  it('hides the current application and prerelease ones', async () => {
    renderDrawer([app({ id: 'portal', title: 'Portal' }), app({ id: 'beta', title: 'Beta', prerelease: true }), app({ id: 'crm', title: 'CRM' })]);

    expect(within(await appList()).getAllByRole('link').map((link) => link.textContent)).toEqual(['CRM']);
  });
});
