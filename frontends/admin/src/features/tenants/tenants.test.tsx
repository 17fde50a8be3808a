import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../test-utils';
import { AREAS, bodiesTo, bodyRows, choose, dialogWith, list, PAGE_TEST_TIMEOUT, queriesTo, sentTo, type } from '../directory/test-helpers';
import { acme, NAMESPACES, paris, TENANTS, tenantRow, TREE } from './test-data';
import TenantsPage, { TENANTS_LIST_KEY } from './TenantsPage';

beforeEach(() => sessionStorage.clear());

describe('TenantsPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  function renderList(options: { roles?: string[]; api?: ApiRoutes; language?: 'en' | 'fr' } = {}) {
    return renderPage(<TenantsPage />, {
      route: '/tenants',
      pattern: '/tenants',
      roles: options.roles,
      language: options.language,
      namespaces: [...NAMESPACES],
      api: { [TENANTS]: list([acme, paris]), 'GET /api/v1/admin/areas': AREAS, ...options.api },
    });
  }

  /** The list queries sent, without the area and tenant lookups of the pickers. */
  const listQueries = (fetchMock: Parameters<typeof queriesTo>[0]) => queriesTo(fetchMock, TENANTS).filter((query) => query.top !== '50');

  it('lists the tenants by title with area, parent, CIF, European VAT, creation type and customised flag', async () => {
    const { fetchMock } = await renderList();

    expect(await screen.findByRole('link', { name: 'Paris' })).toHaveAttribute('href', '/tenants/t-paris');
    expect(bodyRows()).toHaveLength(2);
    const row = screen.getByRole('link', { name: 'Paris' }).closest('tr')!;
    for (const text of ['South', 'Acme', 'B12345678', 'FR12345678901', 'Auto']) expect(within(row).getByText(text)).toBeInTheDocument();
    expect(within(row).getByLabelText('Customised')).toBeInTheDocument();
    const acmeRow = screen.getByRole('link', { name: 'Acme' }).closest('tr')!;
    expect(within(acmeRow).getByText('Manual')).toBeInTheDocument();
    expect(within(acmeRow).queryByLabelText('Customised')).not.toBeInTheDocument();
    for (const header of ['Title', 'Area', 'Parent', 'CIF', 'European VAT', 'Creation type', 'Customised', 'Modified on']) {
      expect(screen.getByRole('columnheader', { name: new RegExp(header) })).toBeInTheDocument();
    }
    expect(listQueries(fetchMock)[0]).toEqual({ skip: '0', top: '10', orderBy: 'title asc', includeHierarchy: 'true' });
  });

  /** The list as the server filters it: Paris is Auto and customised, Acme neither. */
  function filteredList(request: Request) {
    const query = new URL(request.url).searchParams;
    const creation = query.get('creation');
    const customized = query.get('isUserCustomized');
    const items = [acme, paris].filter(
      (tenant) => (!creation || tenant.auto === creation) && (!customized || String(tenant.isUserCustomized) === customized),
    );
    return jsonResponse(list(items));
  }

  const shownTitles = () => bodyRows().map((row) => within(row).getAllByRole('link')[0]!.textContent);

  it('cycles the creation-type box undetermined → Auto → Manual → undetermined, and remembers it', async () => {
    const { fetchMock } = await renderList({ api: { [TENANTS]: filteredList } });
    await screen.findByRole('link', { name: 'Paris' });
    const box = screen.getByRole('checkbox', { name: 'Auto creation' });
    expect(box).toBePartiallyChecked();
    expect(box).toHaveAccessibleDescription(/Ticked: only those created automatically \(Auto\)\. Unticked: only those created by hand \(Manual\)/);

    fireEvent.click(box);
    await waitFor(() => expect(shownTitles()).toEqual(['Paris']));
    expect(listQueries(fetchMock).at(-1)).toMatchObject({ creation: 'Auto', skip: '0', includeHierarchy: 'true' });
    expect(box).toBeChecked();
    expect(JSON.parse(sessionStorage.getItem(TENANTS_LIST_KEY)!)).toMatchObject({ filters: { creation: 'Auto' } });

    fireEvent.click(box);
    await waitFor(() => expect(shownTitles()).toEqual(['Acme']));
    expect(listQueries(fetchMock).at(-1)).toMatchObject({ creation: 'Manual' });
    expect(box).not.toBeChecked();
    expect(box).not.toBePartiallyChecked();

    fireEvent.click(box);
    await waitFor(() => expect(shownTitles()).toEqual(['Acme', 'Paris']));
    expect(box).toBePartiallyChecked();
    expect(JSON.parse(sessionStorage.getItem(TENANTS_LIST_KEY)!)).toMatchObject({ filters: { creation: '' } });
    // No filter is the first query again: never a request with a creation parameter beyond the two states.
    expect(listQueries(fetchMock).map((query) => query.creation)).toEqual([undefined, 'Auto', 'Manual']);
  });

  it('cycles the customised box undetermined → true → false → undetermined', async () => {
    const { fetchMock } = await renderList({ api: { [TENANTS]: filteredList } });
    await screen.findByRole('link', { name: 'Paris' });
    const box = screen.getByRole('checkbox', { name: 'Customised' });
    expect(box).toBePartiallyChecked();

    fireEvent.click(box);
    await waitFor(() => expect(shownTitles()).toEqual(['Paris']));
    fireEvent.click(box);
    await waitFor(() => expect(shownTitles()).toEqual(['Acme']));
    fireEvent.click(box);
    await waitFor(() => expect(shownTitles()).toEqual(['Acme', 'Paris']));
    expect(box).toBePartiallyChecked();
    expect(listQueries(fetchMock).map((query) => query.isUserCustomized)).toEqual([undefined, 'true', 'false']);
  });

  it('filters by area', async () => {
    const { fetchMock } = await renderList();
    await screen.findByRole('link', { name: 'Paris' });

    await choose('Area', 'South');

    await waitFor(() => expect(listQueries(fetchMock).at(-1)).toMatchObject({ area: 'a2', skip: '0' }));
  });

  it('queues the export of the tenants as filtered and sorted, without paging, and says it runs in the background', async () => {
    const download = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    const { fetchMock } = await renderList({ api: { 'GET /api/v1/admin/tenants/export': jsonResponse({ jobId: 'job-1' }, 202) } });
    await screen.findByRole('link', { name: 'Paris' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Customised' }));
    await waitFor(() => expect(listQueries(fetchMock).at(-1)).toMatchObject({ isUserCustomized: 'true' }));

    fireEvent.click(screen.getByRole('button', { name: /Export to Excel/ }));

    expect(await screen.findByText('Operation Completed Successfully')).toBeInTheDocument();
    expect(screen.getByText('Your operation will be processed in background.')).toBeInTheDocument();
    expect(queriesTo(fetchMock, 'GET /api/v1/admin/tenants/export')).toEqual([{ orderBy: 'title asc', includeHierarchy: 'true', isUserCustomized: 'true' }]);
    // The file comes later, through the notifications flyout: nothing is downloaded now.
    expect(download).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it('says so in the user’s language', async () => {
    await renderList({ language: 'fr', api: { 'GET /api/v1/admin/tenants/export': jsonResponse({ jobId: 'job-1' }, 202) } });
    await screen.findByRole('link', { name: 'Paris' });

    fireEvent.click(screen.getByRole('button', { name: /Exporter vers Excel/ }));

    expect(await screen.findByText('Opération effectuée avec succès')).toBeInTheDocument();
    expect(screen.getByText('Votre opération sera traitée en arrière-plan.')).toBeInTheDocument();
  });

  it('says why an export is refused, and queues nothing', async () => {
    const refusal = { code: 'errors.validation', message: 'The request is not valid', errors: [{ field: 'creation', code: 'validation.invalid', message: 'creation is not valid' }] };
    await renderList({ api: { 'GET /api/v1/admin/tenants/export': jsonResponse(refusal, 400) } });
    await screen.findByRole('link', { name: 'Paris' });

    fireEvent.click(screen.getByRole('button', { name: /Export to Excel/ }));

    expect(await screen.findByText('The request is not valid')).toBeInTheDocument();
    expect(screen.queryByText('Operation Completed Successfully')).not.toBeInTheDocument();
  });

  describe('New Entity', () => {
    async function openDialog(api: ApiRoutes = {}) {
      const rendered = await renderList({ api });
      await screen.findByRole('link', { name: 'Paris' });
      fireEvent.click(screen.getByRole('button', { name: /New/ }));
      return { ...rendered, dialog: await dialogWith('New Entity') };
    }

    it('asks for a title and an area with the spec’s messages', async () => {
      const { dialog, fetchMock } = await openDialog();

      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

      expect(await within(dialog).findByText('Please enter a title')).toBeInTheDocument();
      expect(within(dialog).getByText('Area is required')).toBeInTheDocument();
      type(within(dialog).getByLabelText('Title'), '   ');
      expect(await within(dialog).findByText('Please enter a title')).toBeInTheDocument();
      expect(sentTo(fetchMock, 'POST /api/v1/admin/tenants')).toHaveLength(0);
    });

    it('creates a tenant under a parent, optional fields blank as none, and opens its page', async () => {
      const created = tenantRow({ id: 't-lyon', title: 'Lyon', parentId: 't-acme', parentTitle: 'Acme' });
      const { dialog, fetchMock } = await openDialog({ 'POST /api/v1/admin/tenants': () => jsonResponse(created, 201) });

      type(within(dialog).getByLabelText('Title'), ' Lyon ');
      await choose('Area', 'North', dialog);
      await choose('Parent tenant', 'Acme (North)', dialog);
      type(within(dialog).getByLabelText('CIF'), 'B99');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

      expect(await screen.findByTestId('location')).toHaveTextContent('/tenants/t-lyon');
      expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/tenants')).toEqual([
        { title: 'Lyon', areaId: 'a1', parentId: 't-acme', taxNumber: 'B99', viesNumber: null },
      ]);
    });

    it('shows the server’s reason for a refusal under the field it names', async () => {
      const { dialog } = await openDialog({
        'POST /api/v1/admin/tenants': () =>
          jsonResponse(
            {
              code: 'tenants.area_forbidden',
              message: 'You can only manage the tenants of your own areas',
              errors: [{ field: 'areaId', code: 'tenants.area_forbidden', message: 'You can only manage the tenants of your own areas' }],
            },
            403,
          ),
      });
      type(within(dialog).getByLabelText('Title'), 'Lyon');
      await choose('Area', 'South', dialog);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

      expect(await within(dialog).findByText('You can only manage the tenants of your own areas')).toBeInTheDocument();
      expect(screen.queryByTestId('location')).not.toBeInTheDocument();
    });
  });

  it('deletes a tenant after confirmation, and shows why the server refused another', async () => {
    const { fetchMock } = await renderList({
      api: {
        'DELETE /api/v1/admin/tenants/t-paris': new Response(null, { status: 204 }),
        'DELETE /api/v1/admin/tenants/t-acme': jsonResponse(
          { code: 'tenants.has_children', message: 'This tenant has 1 child tenant: move or delete it first' },
          409,
        ),
      },
    });
    await screen.findByRole('link', { name: 'Paris' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete the tenant Paris' }));
    let confirm = await dialogWith('Delete the tenant Paris?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText('Delete the tenant Paris?')).not.toBeInTheDocument());
    expect(sentTo(fetchMock, 'DELETE /api/v1/admin/tenants/t-paris')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete the tenant Paris' }));
    confirm = await dialogWith('Delete the tenant Paris?');
    expect(confirm).toHaveTextContent('A tenant with child tenants cannot be deleted');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The tenant Paris has been deleted')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'DELETE /api/v1/admin/tenants/t-paris')).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Delete the tenant Acme' }));
    fireEvent.click(within(await dialogWith('Delete the tenant Acme?')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('This tenant has 1 child tenant: move or delete it first')).toBeInTheDocument();
  });

  it('lets a Manager create and delete tenants', async () => {
    await renderList({ roles: ['Manager'] });
    await screen.findByRole('link', { name: 'Paris' });

    expect(screen.getByRole('button', { name: /New/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete the tenant Paris' })).toBeInTheDocument();
  });

  it('offers neither creation nor deletion to the read-only TenantAdministrator, but the hierarchy and the export', async () => {
    await renderList({ roles: ['TenantAdministrator'] });
    await screen.findByRole('link', { name: 'Paris' });

    expect(screen.queryByRole('button', { name: /New/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete the tenant/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hierarchy of Paris' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Export to Excel/ })).toBeInTheDocument();
  });

  it('shows the tree a tenant belongs to in the Hierarchy drawer, with the tenant marked and every tenant linked', async () => {
    const { fetchMock } = await renderList({ api: { 'GET /api/v1/admin/tenants/t-paris/hierarchy-tree': TREE } });
    await screen.findByRole('link', { name: 'Paris' });

    fireEvent.click(screen.getByRole('button', { name: 'Hierarchy of Paris' }));

    const drawer = await dialogWith('Hierarchy of Paris');
    const tree = await within(drawer).findByRole('tree', { name: 'Hierarchy of Paris' });
    const current = within(tree).getByRole('link', { name: 'Paris' });
    expect(current).toHaveAttribute('aria-current', 'page');
    expect(current.closest('.ant-tree-treenode')).toHaveClass('ant-tree-treenode-selected');
    // Opened down to the tenant and its children.
    expect(within(tree).getByRole('link', { name: 'Acme' })).toHaveAttribute('href', '/tenants/t-acme');
    expect(within(tree).getByRole('link', { name: 'Berlin' })).not.toHaveAttribute('aria-current');
    expect(within(tree).getByRole('link', { name: 'Louvre' })).toHaveAttribute('href', '/tenants/t-louvre');
    expect(sentTo(fetchMock, 'GET /api/v1/admin/tenants/t-paris/hierarchy-tree')).toHaveLength(1);
    expect(drawer.closest('.ant-drawer-content-wrapper')).toHaveStyle({ width: '800px' });

    fireEvent.click(within(tree).getByRole('link', { name: 'Berlin' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/tenants/t-berlin');
  });
});
