import { fireEvent, screen, within } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../test-utils';
import { breadcrumbState, PageHeader } from './PageHeader';

function trail() {
  const nav = screen.getByRole('navigation', { name: 'Breadcrumbs' });
  return within(nav)
    .getAllByRole('listitem')
    .map((item) => {
      const link = within(item).queryByRole('link');
      return link ? [link.getAttribute('aria-label') ?? link.textContent, link.getAttribute('href')] : [item.textContent];
    });
}

describe('PageHeader', () => {
  it('starts the breadcrumbs with a Home icon to the dashboard, then the given trail', async () => {
    await renderPage(
      <PageHeader title="Ada Admin" breadcrumbs={[{ title: 'Users', to: '/users' }, { title: 'Ada Admin' }]} />,
      { namespaces: ['admin'], route: '/users/1' },
    );

    expect(screen.getByRole('heading', { level: 1, name: 'Ada Admin' })).toBeInTheDocument();
    expect(trail()).toEqual([['Home', '/'], ['Users', '/users'], ['Ada Admin']]);
  });

  it('links Home to /admin inside the console', async () => {
    await renderPage(
      <MemoryRouter basename="/admin" initialEntries={['/admin/users']}>
        <PageHeader title="Users" />
      </MemoryRouter>,
      { namespaces: ['admin'], router: false },
    );

    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/admin');
  });

  it('shows the trail the page derives from its route, whatever trail the opening link carried, so a reload shows the same', async () => {
    await renderPage(
      <PageHeader title="Reader" breadcrumbs={[{ title: 'Applications', to: '/applications' }, { title: 'Reader' }]} />,
      {
        namespaces: ['admin'],
        route: '/applications/crm/roles/7',
        state: breadcrumbState([
          { title: 'Users', to: '/users' },
          { title: 'Ada Admin', to: '/users/1' },
          { title: 'Old name' },
        ]),
      },
    );

    expect(trail()).toEqual([['Home', '/'], ['Applications', '/applications'], ['Reader']]);
  });

  it('ignores a navigation state that holds no well-formed breadcrumbs', async () => {
    await renderPage(<PageHeader title="Groups" breadcrumbs={[{ title: 'Groups' }]} />, {
      namespaces: ['admin'],
      state: { breadcrumbs: [{ label: 'x' }] },
    });

    expect(trail()).toEqual([['Home', '/'], ['Groups']]);
  });

  it('shows the actions next to the title', async () => {
    await renderPage(<PageHeader title="Users" extra={<button type="button">Export</button>} />, { namespaces: ['admin'] });

    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
  });

  it('has no back arrow unless asked', async () => {
    await renderPage(<PageHeader title="Users" />, { namespaces: ['admin'] });

    expect(screen.queryByRole('link', { name: 'Back' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
  });

  it('goes back to the given link', async () => {
    await renderPage(<PageHeader title="Ada Admin" back="/users?page=2" />, {
      namespaces: ['admin'],
      route: '/users/1',
      pattern: '/users/:id',
    });

    const back = screen.getByRole('link', { name: 'Back' });
    expect(back).toHaveAttribute('href', '/users?page=2');
    fireEvent.click(back);
    expect(screen.getByTestId('location')).toHaveTextContent('/users?page=2');
  });

  it('goes one step back in the history with back={true}', async () => {
    await renderPage(
      <MemoryRouter initialEntries={['/groups']}>
        <Routes>
          <Route path="/groups" element={<Link to="/groups/9">Open group 9</Link>} />
          <Route path="/groups/:id" element={<PageHeader title="Group 9" back />} />
        </Routes>
      </MemoryRouter>,
      { namespaces: ['admin'], router: false },
    );

    fireEvent.click(screen.getByRole('link', { name: 'Open group 9' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }));

    expect(await screen.findByRole('link', { name: 'Open group 9' })).toBeInTheDocument();
  });
});
