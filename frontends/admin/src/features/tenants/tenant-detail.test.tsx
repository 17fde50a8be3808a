import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../test-utils';
import { AREAS, bodiesTo, choose, dialogWith, list, PAGE_TEST_TIMEOUT, sentTo, type } from '../directory/test-helpers';
import TenantDetailPage from './TenantDetailPage';
import type { TenantDetail } from './tenants-api';
import { acme, madrid, NAMESPACES, node, paris, parisDetail, TENANTS } from './test-data';

const PARIS = 'GET /api/v1/admin/tenants/t-paris';
const MOVE_LOUVRE = 'PUT /api/v1/admin/tenants/t-louvre/change-parent';
const MOVE_PARIS = 'PUT /api/v1/admin/tenants/t-paris/change-parent';

const louvreDetail: TenantDetail = {
  ...parisDetail,
  id: 't-louvre',
  title: 'Louvre',
  parentId: 't-berlin',
  parentTitle: 'Berlin',
  tree: node('t-acme', 'Acme', [node('t-berlin', 'Berlin', [node('t-louvre', 'Louvre')]), node('t-paris', 'Paris')]),
};

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.restoreAllMocks());

function renderDetail(options: { roles?: string[]; api?: ApiRoutes; subject?: TenantDetail } = {}) {
  const subject = options.subject ?? parisDetail;
  return renderPage(<TenantDetailPage />, {
    route: `/tenants/${subject.id}`,
    pattern: '/tenants/:id',
    roles: options.roles,
    namespaces: [...NAMESPACES],
    api: {
      [`GET /api/v1/admin/tenants/${subject.id}`]: subject,
      'GET /api/v1/admin/tenants/t-louvre': louvreDetail,
      [TENANTS]: list([acme, paris, madrid]),
      'GET /api/v1/admin/areas': AREAS,
      ...options.api,
    },
  });
}

/** The hierarchy card's tree. */
const hierarchyTree = () => screen.getByRole('tree', { name: 'Hierarchy' });

/** The tenants the tree shows, top to bottom, each indented by its depth. */
function treeOutline(): string[] {
  return [...hierarchyTree().querySelectorAll<HTMLElement>('.ant-tree-treenode')]
    .filter((item) => item.querySelector('.ant-tree-title'))
    .map((item) => `${'  '.repeat(item.querySelectorAll('.ant-tree-indent-unit').length)}${item.querySelector('.ant-tree-title')!.textContent}`);
}

const treeNode = (title: string) => within(hierarchyTree()).getByText(title).closest<HTMLElement>('.ant-tree-treenode')!;

/**
 * A drag event at the pointer position `clientX` (jsdom has no DragEvent: the generic event it
 * falls back on would drop the coordinates).
 */
function dragEvent(kind: 'dragStart' | 'dragEnter' | 'dragOver' | 'drop', element: HTMLElement, clientX: number): Event {
  const event = createEvent[kind](element, { dataTransfer: { setData: () => undefined } });
  Object.defineProperties(event, { clientX: { value: clientX }, clientY: { value: 0 } });
  return event;
}

/**
 * Drags the tenant `from` and lets it go onto the tenant `to`, or (`gap`) just below it, as a
 * mouse would: pointer moved right of the dragged tenant's indentation, the drop lands onto the
 * target; kept at it, beside the target. Gaps need {@link measureIndentation}.
 */
function dragOnto(from: string, to: string, { gap = false } = {}) {
  const source = treeNode(from);
  const target = treeNode(to);
  fireEvent(source, dragEvent('dragStart', source, 0));
  for (const kind of ['dragEnter', 'dragOver', 'drop'] as const) fireEvent(target, dragEvent(kind, target, gap ? 0 : 200));
}

/** Gives the tree's indentation a width, as a browser measures it (jsdom measures 0). Before the render. */
function measureIndentation() {
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(24);
}

const ORIGINAL_OUTLINE = ['Acme', '  Berlin', '  Paris', '    Louvre'];

describe('TenantDetailPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('shows the tenant’s tree with it selected, and the General tab read-only until Edit', async () => {
    const { fetchMock } = await renderDetail();

    expect(await screen.findByRole('heading', { level: 1, name: 'Paris' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: /breadcrumb/i });
    expect(within(crumbs).getByRole('link', { name: 'Tenants' })).toHaveAttribute('href', '/tenants');
    expect(treeOutline()).toEqual(ORIGINAL_OUTLINE);
    expect(treeNode('Paris')).toHaveClass('ant-tree-treenode-selected');
    expect(new URL(sentTo(fetchMock, PARIS)[0]!.url).search).toBe('?includeHierarchy=true&includeHierarchyTree=true');

    expect(screen.getByLabelText('Title')).toHaveValue('Paris');
    expect(screen.getByLabelText('Title')).toBeDisabled();
    expect(screen.getByLabelText('CIF')).toHaveValue('B12345678');
    expect(screen.getByLabelText('European VAT')).toHaveValue('FR12345678901');
    expect(screen.getByLabelText('Group alias')).toHaveValue('paris-team');
    expect(screen.getByLabelText('Creation type')).toHaveValue('Auto');
    expect(screen.getByRole('switch', { name: 'Customised by a user' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'MFA required' })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Parent tenant' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('lets the form be changed after Edit, Cancel putting it back, Save sending it', async () => {
    const { fetchMock } = await renderDetail({ api: { 'PUT /api/v1/admin/tenants/t-paris': () => jsonResponse({ ...paris, title: 'Paris Nord' }) } });
    await screen.findByRole('heading', { level: 1, name: 'Paris' });

    fireEvent.click(screen.getByRole('button', { name: /Edit/ }));
    const title = screen.getByLabelText('Title');
    expect(title).toBeEnabled();
    type(title, 'Paris Sud');
    type(screen.getByLabelText('CIF'), '');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByLabelText('Title')).toBeDisabled());
    expect(screen.getByLabelText('Title')).toHaveValue('Paris');
    expect(screen.getByLabelText('CIF')).toHaveValue('B12345678');
    expect(sentTo(fetchMock, 'PUT /api/v1/admin/tenants/t-paris')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: /Edit/ }));
    type(screen.getByLabelText('Title'), '');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter a title')).toBeInTheDocument();
    type(screen.getByLabelText('Title'), ' Paris Nord ');
    type(screen.getByLabelText('European VAT'), '  ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'PUT /api/v1/admin/tenants/t-paris')).toEqual([
      { title: 'Paris Nord', areaId: 'a2', taxNumber: 'B12345678', viesNumber: null, groupAlias: 'paris-team' },
    ]);
    await waitFor(() => expect(screen.getByLabelText('Title')).toBeDisabled());
  });

  it('shows the server’s text when a save is refused', async () => {
    await renderDetail({
      api: {
        'PUT /api/v1/admin/tenants/t-paris': () =>
          jsonResponse({ code: 'tenants.area_forbidden', message: 'You can only manage the tenants of your own areas' }, 403),
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'Paris' });
    fireEvent.click(screen.getByRole('button', { name: /Edit/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('You can only manage the tenants of your own areas')).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toBeEnabled();
  });

  it('changes the parent through Change Parent Tenant after confirmation; cancelled, the previous parent stays', async () => {
    const { fetchMock } = await renderDetail({ api: { [MOVE_PARIS]: () => jsonResponse({ ...paris, parentId: 't-madrid', parentTitle: 'Madrid' }) } });
    await screen.findByRole('heading', { level: 1, name: 'Paris' });
    const picker = () => screen.getByRole('combobox', { name: 'Parent tenant' });
    const shownParent = () => picker().closest('.ant-select')!.querySelector('.ant-select-content')?.textContent;
    expect(shownParent()).toMatch(/^Acme\b/);

    fireEvent.click(screen.getByRole('button', { name: 'Change Parent Tenant' }));
    expect(picker()).toBeEnabled();
    await choose('Parent tenant', 'Madrid (North)');
    let confirm = await dialogWith('Are you sure you want to change the parent of this tenant?');
    expect(confirm).toHaveTextContent('This action can affect users permissions');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(shownParent()).toMatch(/^Acme\b/));
    expect(sentTo(fetchMock, MOVE_PARIS)).toHaveLength(0);

    await choose('Parent tenant', 'Madrid (North)');
    confirm = await dialogWith('Are you sure you want to change the parent of this tenant?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, MOVE_PARIS)).toEqual([{ newParentId: 't-madrid' }]);
    await waitFor(() => expect(picker()).toBeDisabled());
  });

  it('keeps the previous parent and says why when the server refuses the change', async () => {
    await renderDetail({
      api: { [MOVE_PARIS]: () => jsonResponse({ code: 'tenants.cycle', message: 'A tenant cannot be moved under itself or one of its descendants' }, 409) },
    });
    await screen.findByRole('heading', { level: 1, name: 'Paris' });
    fireEvent.click(screen.getByRole('button', { name: 'Change Parent Tenant' }));
    await choose('Parent tenant', 'Madrid (North)');
    fireEvent.click(within(await dialogWith('Are you sure you want to change the parent of this tenant?')).getByRole('button', { name: 'OK' }));

    expect(await screen.findByText('A tenant cannot be moved under itself or one of its descendants')).toBeInTheDocument();
    const picker = screen.getByRole('combobox', { name: 'Parent tenant' });
    expect(picker.closest('.ant-select')!.querySelector('.ant-select-content')?.textContent).toMatch(/^Acme\b/);
  });

  it('opens another tenant when its node is clicked', async () => {
    await renderDetail();
    await screen.findByRole('heading', { level: 1, name: 'Paris' });

    fireEvent.click(within(hierarchyTree()).getByText('Louvre'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Louvre' })).toBeInTheDocument();
    await waitFor(() => expect(treeNode('Louvre')).toHaveClass('ant-tree-treenode-selected'));
  });

  describe('drag and drop in the tree', () => {
    it('moves a dropped tenant under its target after confirmation, then shows the moved tenant', async () => {
      const { fetchMock } = await renderDetail({ api: { [MOVE_LOUVRE]: () => jsonResponse({ ...paris, id: 't-louvre', title: 'Louvre', parentId: 't-berlin' }) } });
      await screen.findByRole('heading', { level: 1, name: 'Paris' });

      dragOnto('Louvre', 'Berlin');

      const confirm = await dialogWith('Are you sure you want to change the parent of this tenant?');
      expect(confirm).toHaveTextContent('This action can affect users permissions');
      // The tree shows the move while it is confirmed.
      expect(treeOutline()).toEqual(['Acme', '  Berlin', '    Louvre', '  Paris']);
      fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));

      expect(await screen.findByRole('heading', { level: 1, name: 'Louvre' })).toBeInTheDocument();
      expect(await bodiesTo(fetchMock, MOVE_LOUVRE)).toEqual([{ newParentId: 't-berlin' }]);
      await waitFor(() => expect(treeNode('Louvre')).toHaveClass('ant-tree-treenode-selected'));
      expect(treeOutline()).toEqual(['Acme', '  Berlin', '    Louvre', '  Paris']);
    });

    it('makes a tenant dropped beside another its sibling', async () => {
      measureIndentation();
      const { fetchMock } = await renderDetail({ api: { [MOVE_LOUVRE]: () => jsonResponse({ ...paris, id: 't-louvre', title: 'Louvre', parentId: 't-acme' }) } });
      await screen.findByRole('heading', { level: 1, name: 'Paris' });

      dragOnto('Louvre', 'Berlin', { gap: true });

      fireEvent.click(within(await dialogWith('Are you sure you want to change the parent of this tenant?')).getByRole('button', { name: 'OK' }));
      await waitFor(() => expect(sentTo(fetchMock, MOVE_LOUVRE)).toHaveLength(1));
      expect(await bodiesTo(fetchMock, MOVE_LOUVRE)).toEqual([{ newParentId: 't-acme' }]);
    });

    it('puts the tree back and sends nothing when the move is cancelled', async () => {
      const { fetchMock } = await renderDetail();
      await screen.findByRole('heading', { level: 1, name: 'Paris' });

      dragOnto('Louvre', 'Berlin');
      const confirm = await dialogWith('Are you sure you want to change the parent of this tenant?');
      fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));

      await waitFor(() => expect(treeOutline()).toEqual(ORIGINAL_OUTLINE));
      expect(sentTo(fetchMock, MOVE_LOUVRE)).toHaveLength(0);
      expect(screen.getByRole('heading', { level: 1, name: 'Paris' })).toBeInTheDocument();
    });

    it('puts the tree back and shows the server’s reason, or "Unexpected error", when the move fails', async () => {
      let answer = jsonResponse({ code: 'tenants.area_forbidden', message: 'You can only manage the tenants of your own areas' }, 403);
      const { fetchMock } = await renderDetail({ api: { [MOVE_LOUVRE]: () => answer } });
      await screen.findByRole('heading', { level: 1, name: 'Paris' });

      dragOnto('Louvre', 'Berlin');
      fireEvent.click(within(await dialogWith('Are you sure you want to change the parent of this tenant?')).getByRole('button', { name: 'OK' }));

      expect(await screen.findByText('You can only manage the tenants of your own areas')).toBeInTheDocument();
      expect(treeOutline()).toEqual(ORIGINAL_OUTLINE);
      expect(sentTo(fetchMock, MOVE_LOUVRE)).toHaveLength(1);

      answer = new Response('', { status: 502 });
      dragOnto('Louvre', 'Berlin');
      fireEvent.click(within(await dialogWith('Are you sure you want to change the parent of this tenant?')).getByRole('button', { name: 'OK' }));
      expect(await screen.findByText('Unexpected error')).toBeInTheDocument();
      expect(treeOutline()).toEqual(ORIGINAL_OUTLINE);
      expect(screen.getByRole('heading', { level: 1, name: 'Paris' })).toBeInTheDocument();
    });

    it('asks nothing when a tenant is dropped where it already is', async () => {
      await renderDetail();
      await screen.findByRole('heading', { level: 1, name: 'Paris' });

      dragOnto('Louvre', 'Paris');

      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(screen.queryByText('Are you sure you want to change the parent of this tenant?')).not.toBeInTheDocument();
    });
  });

  describe('for a Manager', () => {
    it('offers Edit, Change Parent Tenant and drag and drop, but no Members tab', async () => {
      await renderDetail({ roles: ['Manager'] });
      await screen.findByRole('heading', { level: 1, name: 'Paris' });

      expect(screen.getByRole('tab', { name: 'General' })).toBeInTheDocument();
      expect(screen.queryByRole('tab', { name: 'Members' })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: /Edit/ })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Change Parent Tenant' })).toBeInTheDocument();
      expect(treeNode('Louvre')).toHaveAttribute('draggable', 'true');
    });
  });

  it('offers the read-only TenantAdministrator neither Edit, Change Parent Tenant, drag and drop nor Members', async () => {
    await renderDetail({ roles: ['TenantAdministrator'] });
    await screen.findByRole('heading', { level: 1, name: 'Paris' });

    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change Parent Tenant' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Members' })).not.toBeInTheDocument();
    expect(treeNode('Louvre')).not.toHaveAttribute('draggable', 'true');
  });

  it('says when the tenant cannot be read', async () => {
    await renderDetail({ api: { [PARIS]: () => jsonResponse({ code: 'errors.not_found', message: 'Tenant not found' }, 404) } });
    expect(await screen.findByText('Tenant not found')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Tenants' })).toBeInTheDocument();
  });

  it('keeps a tree of one tenant', async () => {
    await renderDetail({ subject: { ...parisDetail, id: 't-madrid', title: 'Madrid', parentId: null, parentTitle: null, tree: node('t-madrid', 'Madrid') } });
    await screen.findByRole('heading', { level: 1, name: 'Madrid' });
    expect(treeOutline()).toEqual(['Madrid']);
  });
});
