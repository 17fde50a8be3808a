import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderPage } from '../../../test-utils';
import { LIST_STORAGE_KEYS } from '../components/list-state';
import { bodyRows, list, PAGE_TEST_TIMEOUT, queriesTo, type } from '../test-helpers';
import { AreasPage } from './AreasPage';

const areas = [
  { id: 'a1', name: 'Global', default: true, system: true },
  { id: 'a2', name: 'North', default: false, system: false },
];

beforeEach(() => sessionStorage.clear());

describe('AreasPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('lists the areas read-only with their default and system flags, sorted by name', async () => {
    const { fetchMock } = await renderPage(<AreasPage />, { route: '/areas', api: { 'GET /api/v1/admin/areas': list(areas, 2) } });

    expect(await screen.findByText('North')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Areas' })).toBeInTheDocument();
    const [first, second] = bodyRows();
    expect(first).toHaveTextContent('Global');
    expect(first!.querySelectorAll('[aria-label="Default"], [aria-label="System"]')).toHaveLength(2);
    expect(second!.querySelectorAll('[aria-label="Default"], [aria-label="System"]')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /new/i })).not.toBeInTheDocument();
    expect(queriesTo(fetchMock, 'GET /api/v1/admin/areas')[0]).toEqual({ skip: '0', top: '10', orderBy: 'name asc' });
  });

  it('remembers its query: a new visit searches and pages as the last one left it', async () => {
    const { fetchMock, unmount } = await renderPage(<AreasPage />, {
      route: '/areas',
      api: { 'GET /api/v1/admin/areas': list(areas, 2) },
    });
    type(await screen.findByRole('searchbox', { name: 'Search' }), 'nor');
    await waitFor(() => expect(queriesTo(fetchMock, 'GET /api/v1/admin/areas').at(-1)).toMatchObject({ $search: 'nor' }));
    unmount();

    expect(JSON.parse(sessionStorage.getItem(LIST_STORAGE_KEYS.areas)!)).toMatchObject({ search: 'nor', page: 1 });
    const again = await renderPage(<AreasPage />, {
      route: '/areas',
      api: { 'GET /api/v1/admin/areas': () => jsonResponse(list([areas[1]], 1)) },
    });
    expect(await screen.findByRole('searchbox', { name: 'Search' })).toHaveValue('nor');
    await waitFor(() => expect(queriesTo(again.fetchMock, 'GET /api/v1/admin/areas')[0]).toMatchObject({ $search: 'nor', skip: '0' }));
  });
});
