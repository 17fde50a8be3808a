import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage, type ApiRoutes } from '../../../test-utils';
import { LIST_STORAGE_KEYS } from '../components/list-state';
import { AREAS, bodiesTo, bodyRows, choose, dialogWith, formDataTo, list, localDateTime, PAGE_TEST_TIMEOUT, queriesTo, sentTo, type, userRow } from '../test-helpers';
import { USERS_COLUMNS_KEY, UsersPage } from './UsersPage';

const USERS = 'GET /api/v1/admin/users';

const ana = userRow({ id: 'u1', userName: 'ana@example.com', firstName: 'Ana', lastName: 'Lima', validateScopes: true });
const bob = userRow({ id: 'u2', userName: 'bob@example.com', firstName: 'Bob', lastName: 'Stone', locked: true });
const carl = userRow({ id: 'u3', userName: 'carl@example.com', firstName: 'Carl', lastName: 'Draft', draft: true });

function renderUsers(options: { roles?: string[]; api?: ApiRoutes } = {}) {
  return renderPage(<UsersPage />, {
    route: '/users',
    pattern: '/users',
    roles: options.roles,
    api: { [USERS]: list([ana, bob, carl], 3), 'GET /api/v1/admin/areas': AREAS, ...options.api },
  });
}

const rowOf = (userName: string) => screen.getByText(userName).closest('tr')!;

function StateProbe() {
  const location = useLocation();
  return <pre data-testid="state">{JSON.stringify(location.state)}</pre>;
}

beforeEach(() => sessionStorage.clear());

describe('UsersPage: the list', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('shows each user with status, names, area, restriction and modification date, newest first', async () => {
    const { fetchMock } = await renderUsers();

    expect(await screen.findByRole('link', { name: 'ana@example.com' })).toHaveAttribute('href', '/users/u1');
    expect(bodyRows()).toHaveLength(3);
    const anaRow = rowOf('ana@example.com');
    expect(within(anaRow).getByText('Ana')).toBeInTheDocument();
    expect(within(anaRow).getByText('Lima')).toBeInTheDocument();
    expect(within(anaRow).getByText('North')).toBeInTheDocument();
    expect(within(anaRow).getByLabelText('Unlocked')).toBeInTheDocument();
    expect(within(anaRow).getByLabelText('Restricted')).toBeInTheDocument();
    expect(within(anaRow).getByText(localDateTime(ana.modifiedOn))).toBeInTheDocument();
    expect(within(rowOf('bob@example.com')).getByLabelText('Locked')).toBeInTheDocument();
    expect(within(rowOf('bob@example.com')).queryByLabelText('Restricted')).not.toBeInTheDocument();
    expect(queriesTo(fetchMock, USERS)[0]).toEqual({ skip: '0', top: '10', orderBy: 'modifiedOn desc' });
  });

  it('shows an exact total as it is, and an estimated one as "about"', async () => {
    await renderUsers();
    expect(await screen.findByText('1–3 of 3')).toBeInTheDocument();
    cleanup();

    await renderUsers({ api: { [USERS]: { ...list([ana, bob, carl], 12000), countEstimated: true } } });
    expect(await screen.findByText('1–10 of about 12000')).toBeInTheDocument();
  });

  it('strikes a draft user through, without a link or an invitation', async () => {
    await renderUsers();

    const name = await screen.findByText('carl@example.com');
    expect(name.closest('del')).not.toBeNull();
    expect(screen.queryByRole('link', { name: 'carl@example.com' })).not.toBeInTheDocument();
    const carlRow = rowOf('carl@example.com');
    expect(within(carlRow).getByLabelText('Draft')).toBeInTheDocument();
    expect(within(carlRow).queryByRole('button', { name: 'Send invitation' })).not.toBeInTheDocument();
    expect(within(rowOf('ana@example.com')).getByRole('button', { name: 'Send invitation' })).toBeInTheDocument();
  });

  it('carries the breadcrumbs to the user page in the navigation state', async () => {
    await renderPage(
      <MemoryRouter initialEntries={['/users']}>
        <Routes>
          <Route path="/users" element={<UsersPage />} />
          <Route path="/users/:id" element={<StateProbe />} />
        </Routes>
      </MemoryRouter>,
      { router: false, api: { [USERS]: list([ana]), 'GET /api/v1/admin/areas': AREAS } },
    );

    fireEvent.click(await screen.findByRole('link', { name: 'ana@example.com' }));

    expect(JSON.parse(screen.getByTestId('state').textContent!)).toEqual({
      breadcrumbs: [{ title: 'Users', to: '/users' }, { title: 'ana@example.com' }],
    });
  });

  it('searches once the typing pauses for 600 ms, from the first page', async () => {
    const { fetchMock } = await renderUsers();
    await screen.findByText('ana@example.com');

    const search = screen.getByRole('searchbox', { name: 'Search' });
    type(search, 'a');
    type(search, 'an');
    type(search, 'ana');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(queriesTo(fetchMock, USERS).some((query) => '$search' in query)).toBe(false);

    await waitFor(() => expect(queriesTo(fetchMock, USERS).filter((query) => '$search' in query)).toHaveLength(1));
    expect(queriesTo(fetchMock, USERS).at(-1)).toEqual({ $search: 'ana', skip: '0', top: '10', orderBy: 'modifiedOn desc' });
    expect(JSON.parse(sessionStorage.getItem(LIST_STORAGE_KEYS.users)!)).toMatchObject({ search: 'ana' });
  });

  it('pages on the server and changes the page size to 25', async () => {
    const { fetchMock } = await renderUsers({ api: { [USERS]: list([ana, bob, carl], 60) } });
    await screen.findByText('ana@example.com');

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ skip: '10', top: '10' }));

    fireEvent.mouseDown(document.querySelector('.ant-pagination-options .ant-select')!);
    fireEvent.click(await screen.findByTitle('25 / page'));
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ skip: '0', top: '25' }));
  });

  it('asks for the next page right after the page shown, by its cursor, and for any other page by its number', async () => {
    const answer = (request: Request) => {
      const query = new URL(request.url).searchParams;
      const page = query.get('cursor') === 'after-1' ? 2 : query.get('cursor') === 'after-2' ? 3 : Number(query.get('skip')) / 10 + 1;
      return jsonResponse({ ...list([ana, bob, carl], 60), next: `after-${page}` });
    };
    const { fetchMock } = await renderUsers({ api: { [USERS]: answer } });
    await screen.findByText('ana@example.com');

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toEqual({ cursor: 'after-1', top: '10', orderBy: 'modifiedOn desc' }));
    await screen.findByText('11–20 of 60');
    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toEqual({ cursor: 'after-2', top: '10', orderBy: 'modifiedOn desc' }));
    await screen.findByText('21–30 of 60');

    // Back to the first page: by its number (the answer already at hand), as is a jump.
    fireEvent.click(screen.getByTitle('1'));
    await screen.findByText('1–10 of 60');
    expect(queriesTo(fetchMock, USERS).filter((query) => query.cursor === undefined).map((query) => query.skip)).toEqual(['0']);
    fireEvent.click(screen.getByTitle('5'));
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toEqual({ skip: '40', top: '10', orderBy: 'modifiedOn desc' }));
  });

  it('sorts by a column header', async () => {
    const { fetchMock } = await renderUsers();
    await screen.findByText('ana@example.com');

    fireEvent.click(screen.getByRole('columnheader', { name: /Last name/ }));

    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ orderBy: 'lastName asc', skip: '0' }));
  });

  it('filters by status and by area', async () => {
    const { fetchMock } = await renderUsers();
    await screen.findByText('ana@example.com');

    await choose('Status', 'Locked');
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ locked: 'true' }));

    await choose('Area', 'South');
    await waitFor(() => expect(queriesTo(fetchMock, USERS).at(-1)).toMatchObject({ locked: 'true', area: 'a2' }));
  });

  it('goes compact without a search box below 480 px', async () => {
    window.innerWidth = 400;
    await renderUsers();
    await screen.findByText('ana@example.com');

    expect(screen.queryByRole('searchbox', { name: 'Search' })).not.toBeInTheDocument();
    expect(document.querySelector('.ant-table-small')).not.toBeNull();
  });

  it('keeps the chosen table size for the next visit', async () => {
    const { unmount } = await renderUsers();
    await screen.findByText('ana@example.com');
    expect(document.querySelector('.ant-table-small, .ant-table-middle')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Table density' }));
    fireEvent.click(await screen.findByText('Compact'));
    await waitFor(() => expect(document.querySelector('.ant-table-small')).not.toBeNull());
    unmount();

    await renderUsers();
    await screen.findByText('ana@example.com');
    expect(document.querySelector('.ant-table-small')).not.toBeNull();
  });

  it('exports the list as filtered and sorted, without paging, to Users.xlsx', async () => {
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:users', revokeObjectURL: () => undefined }));
    const { fetchMock } = await renderUsers({ api: { 'GET /api/v1/admin/users/export': new Response('xlsx-bytes') } });
    await screen.findByText('ana@example.com');
    await choose('Status', 'Unlocked');

    fireEvent.click(screen.getByRole('button', { name: /Export to Excel/ }));

    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('Users.xlsx');
    expect(queriesTo(fetchMock, 'GET /api/v1/admin/users/export')).toEqual([{ locked: 'false', orderBy: 'modifiedOn desc' }]);
    expect(await screen.findByText('The users have been exported to Users.xlsx')).toBeInTheDocument();
  });

  it('says when the export failed, and not that it succeeded', async () => {
    await renderUsers({
      api: { 'GET /api/v1/admin/users/export': () => jsonResponse({ code: 'errors.internal', message: 'The export failed' }, 500) },
    });
    await screen.findByText('ana@example.com');

    fireEvent.click(screen.getByRole('button', { name: /Export to Excel/ }));

    expect(await screen.findByText('The export failed')).toBeInTheDocument();
    expect(screen.queryByText('The users have been exported to Users.xlsx')).not.toBeInTheDocument();
  });

  it('does not offer the signed-in administrator’s own account for deletion', async () => {
    const self = userRow({ id: 'admin-1', userName: 'ada@example.com', firstName: 'Ada', lastName: 'Admin' });
    await renderUsers({ api: { [USERS]: list([ana, self], 2) } });
    await screen.findByText('ada@example.com');

    expect(within(rowOf('ada@example.com')).getByRole('checkbox')).toBeDisabled();
    expect(within(rowOf('ana@example.com')).getByRole('checkbox')).toBeEnabled();

    fireEvent.click(screen.getByRole('checkbox', { name: /select all/i }));
    expect(await screen.findByRole('button', { name: /Delete selected \(1\)/ })).toBeEnabled();
    expect(within(rowOf('ada@example.com')).getByRole('checkbox')).not.toBeChecked();
  });

  it('never cuts a user name or an e-mail: they wrap at their dots and at sign, the name pinned left and the actions right', async () => {
    const long = 'maximiliane.schwarzenberger-obermeier@verwaltungsgesellschaft-nordrhein.example';
    await renderUsers({ api: { [USERS]: list([userRow({ id: 'u9', userName: long, email: long, firstName: 'Maximiliane' })], 1) } });
    const link = await screen.findByRole('link', { name: long });

    const table = document.querySelector<HTMLElement>('.ant-table-content table, .ant-table-body table')!;
    // An automatic layout: a fixed one shares the width out evenly and cuts what does not fit.
    expect(table.style.tableLayout).toBe('auto');
    expect(document.querySelector('.ant-table-cell-ellipsis')).toBeNull();
    const header = (name: RegExp) => screen.getByRole('columnheader', { name });
    for (const name of [/User name/, /Email/]) expect(header(name)).toHaveClass('gh-identifying');
    // The whole address, with places to wrap before its dots and at sign, none inside a word.
    expect(link).toHaveTextContent(long);
    expect(link.querySelectorAll('wbr')).toHaveLength(3);
    const row = link.closest('tr')!;
    expect(within(row).getAllByText(long)).toHaveLength(2);
    // At 1280 px the columns up to the user name stay at the left when the table scrolls sideways.
    const fixedLeft = /ant-table-cell-fix-(left|start)/;
    expect(header(/User name/).className).toMatch(fixedLeft);
    expect(header(/Email/).className).not.toMatch(fixedLeft);
    expect(header(/Actions/).className).toMatch(/ant-table-cell-fix-(right|end)/);
    expect(within(row).getByRole('button', { name: 'Lock' }).closest('td')!.className).toMatch(/ant-table-cell-fix-(right|end)/);
  });

  it('pins no column on a phone, where it would leave no room for the others', async () => {
    window.innerWidth = 390;
    await renderUsers();
    await screen.findByRole('link', { name: 'ana@example.com' });

    expect(screen.getByRole('columnheader', { name: /User name/ }).className).not.toMatch(/ant-table-cell-fix-(left|start)/);
  });

  it('hides the columns the user unticks, remembers it in this browser, and always shows the user name and the e-mail', async () => {
    await renderUsers();
    await screen.findByRole('link', { name: 'ana@example.com' });

    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const choices = await screen.findByRole('group', { name: 'Columns shown' });
    expect(within(choices).queryByRole('checkbox', { name: 'User name' })).not.toBeInTheDocument();
    expect(within(choices).queryByRole('checkbox', { name: 'Email' })).not.toBeInTheDocument();
    fireEvent.click(within(choices).getByRole('checkbox', { name: 'First name' }));
    fireEvent.click(within(choices).getByRole('checkbox', { name: 'Area' }));

    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /First name/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('columnheader', { name: /Area/ })).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(USERS_COLUMNS_KEY)!)).toEqual(['firstName', 'areaName']);
    cleanup();

    await renderUsers();
    await screen.findByRole('link', { name: 'ana@example.com' });
    expect(screen.queryByRole('columnheader', { name: /First name/ })).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /Last name/ })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    fireEvent.click(within(await screen.findByRole('group', { name: 'Columns shown' })).getByRole('checkbox', { name: 'First name' }));
    expect(await screen.findByRole('columnheader', { name: /First name/ })).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(USERS_COLUMNS_KEY)!)).toEqual(['areaName']);
  });

  it('hides every write action from a read-only TenantAdministrator', async () => {
    await renderUsers({ roles: ['TenantAdministrator'] });
    await screen.findByText('ana@example.com');

    expect(screen.getByRole('button', { name: /Export to Excel/ })).toBeInTheDocument();
    for (const name of [/New user/, /Bulk upload/, /Delete selected/, /Send invitation/, /^Lock$/, /^Unlock$/]) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });
});

describe('UsersPage: invitation and locking', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('sends an invitation after confirmation and says so', async () => {
    const { fetchMock } = await renderUsers({ api: { 'POST /api/v1/admin/users/inviteUser/u1': { success: true, message: 'sent' } } });
    await screen.findByText('ana@example.com');
    fireEvent.click(within(rowOf('ana@example.com')).getByRole('button', { name: 'Send invitation' }));

    const dialog = await dialogWith('Send an invitation mail to ana@example.com?');
    expect(sentTo(fetchMock, 'POST /api/v1/admin/users/inviteUser/u1')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByText('Invitation mail sent successfully.')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'POST /api/v1/admin/users/inviteUser/u1')).toHaveLength(1);
  });

  it('says when the invitation could not be sent', async () => {
    await renderUsers({ api: { 'POST /api/v1/admin/users/inviteUser/u1': { success: false, message: 'mailer down' } } });
    await screen.findByText('ana@example.com');
    fireEvent.click(within(rowOf('ana@example.com')).getByRole('button', { name: 'Send invitation' }));
    fireEvent.click(within(await dialogWith('Send an invitation mail')).getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByText('Failed to send invitation mail. Please try again later.')).toBeInTheDocument();
  });

  it('locks a user after confirmation, shows the user the server locked and reloads the list', async () => {
    const { fetchMock } = await renderUsers({
      api: {
        'GET /api/v1/account/lock/u1': {
          success: true,
          user: { id: 'u1', userName: 'ana@example.com', firstName: 'Ana', lastName: 'Lima', locked: true },
        },
      },
    });
    await screen.findByText('ana@example.com');
    const loadsBefore = sentTo(fetchMock, USERS).length;

    fireEvent.click(within(rowOf('ana@example.com')).getByRole('button', { name: 'Lock' }));
    const dialog = await dialogWith('Lock the user ana@example.com?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Lock' }));

    expect(await screen.findByText('Ana Lima (ana@example.com) is now locked.')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'GET /api/v1/account/lock/u1')).toHaveLength(1);
    await waitFor(() => expect(sentTo(fetchMock, USERS).length).toBe(loadsBefore + 1));
  });

  it('unlocks a locked user, and sends nothing when the confirmation is cancelled', async () => {
    const { fetchMock } = await renderUsers({
      api: {
        'GET /api/v1/account/unlock/u2': {
          success: true,
          user: { id: 'u2', userName: 'bob@example.com', firstName: 'Bob', lastName: 'Stone', locked: false },
        },
      },
    });
    await screen.findByText('bob@example.com');

    fireEvent.click(within(rowOf('bob@example.com')).getByRole('button', { name: 'Unlock' }));
    fireEvent.click(within(await dialogWith('Unlock the user bob@example.com?')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText('Unlock the user bob@example.com?')).not.toBeInTheDocument());
    expect(sentTo(fetchMock, 'GET /api/v1/account/unlock/u2')).toHaveLength(0);

    fireEvent.click(within(rowOf('bob@example.com')).getByRole('button', { name: 'Unlock' }));
    fireEvent.click(within(await dialogWith('Unlock the user bob@example.com?')).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Bob Stone (bob@example.com) is now unlocked.')).toBeInTheDocument();
  });
});

describe('UsersPage: New user', { timeout: PAGE_TEST_TIMEOUT }, () => {
  async function openNewUser(api: ApiRoutes = {}) {
    const page = await renderUsers({ api });
    await screen.findByText('ana@example.com');
    fireEvent.click(screen.getByRole('button', { name: /New user/ }));
    return { ...page, dialog: await dialogWith('New user') };
  }

  it('requires every field with the spec’s messages and checks the e-mail', async () => {
    const { dialog, fetchMock } = await openNewUser();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    for (const message of [
      'Please input your username!',
      'Please input your email!',
      'Please input your first name!',
      'Please input your last name!',
      'Area required',
      'Please select your preferred language!',
    ]) {
      expect(await within(dialog).findByText(message)).toBeInTheDocument();
    }
    type(within(dialog).getByLabelText('Email'), 'not-an-address');
    expect(await within(dialog).findByText('Invalid email address.')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'POST /api/v1/admin/users')).toHaveLength(0);
  });

  it('asks for a password and its confirmation only when Create password is ticked', async () => {
    const { dialog } = await openNewUser();
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Create password' }));
    expect(await within(dialog).findByText('at least 12 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('It must be changed every 90 days.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please input your password!')).toBeInTheDocument();
    expect(within(dialog).getByText('Please confirm your password!')).toBeInTheDocument();

    type(within(dialog).getByLabelText('Password'), 'Str0ng&Secure!');
    type(within(dialog).getByLabelText('Confirm password'), 'Other');
    expect(await within(dialog).findByText('The passwords you entered do not match')).toBeInTheDocument();
  });

  async function fillIn(dialog: HTMLElement) {
    type(within(dialog).getByLabelText('User name'), 'dina@example.com');
    type(within(dialog).getByLabelText('Email'), 'dina@example.com');
    type(within(dialog).getByLabelText('First name'), 'Dina');
    type(within(dialog).getByLabelText('Last name'), 'Reis');
    await choose('Area', 'South', dialog);
    await choose('Language', 'Português (Portugal)', dialog);
  }

  it('creates the user with the typed values, an invitation and no password by default', async () => {
    const created = userRow({ id: 'u9', userName: 'dina@example.com' });
    const { dialog, fetchMock } = await openNewUser({ 'POST /api/v1/admin/users': () => jsonResponse(created, 201) });
    await fillIn(dialog);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('User dina@example.com has been created')).toBeInTheDocument();
    expect(await bodiesTo(fetchMock, 'POST /api/v1/admin/users')).toEqual([
      {
        userName: 'dina@example.com',
        email: 'dina@example.com',
        firstName: 'Dina',
        lastName: 'Reis',
        areaId: 'a2',
        language: 'pt-PT',
        validateScopes: false,
        sendEmailInvite: true,
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('sends the chosen password with its confirmation', async () => {
    const { dialog, fetchMock } = await openNewUser({ 'POST /api/v1/admin/users': () => jsonResponse(userRow({ id: 'u9', userName: 'dina@example.com' }), 201) });
    await fillIn(dialog);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Send an invitation mail' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Create password' }));
    type(await within(dialog).findByLabelText('Password'), 'Str0ng&Secure!');
    type(within(dialog).getByLabelText('Confirm password'), 'Str0ng&Secure!');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(sentTo(fetchMock, 'POST /api/v1/admin/users')).toHaveLength(1));
    expect((await bodiesTo(fetchMock, 'POST /api/v1/admin/users'))[0]).toMatchObject({
      sendEmailInvite: false,
      password: 'Str0ng&Secure!',
      confirmPassword: 'Str0ng&Secure!',
    });
  });

  it('puts the server’s field errors under their fields and keeps the dialog open', async () => {
    const { dialog } = await openNewUser({
      'POST /api/v1/admin/users': jsonResponse(
        { code: 'errors.validation', message: 'The request is not valid', errors: [{ field: 'userName', message: 'This user name is taken' }] },
        400,
      ),
    });
    await fillIn(dialog);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await within(dialog).findByText('This user name is taken')).toBeInTheDocument();
    expect(within(dialog).queryByText('An error occurred')).not.toBeInTheDocument();
  });

  it('shows other failures in the error banner', async () => {
    const { dialog } = await openNewUser({ 'POST /api/v1/admin/users': jsonResponse({ code: 'errors.forbidden', message: 'Forbidden' }, 403) });
    await fillIn(dialog);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('An error occurred');
    expect(alert).toHaveTextContent("You don't have permission to perform this action");
  });
});

describe('UsersPage: bulk upload', { timeout: PAGE_TEST_TIMEOUT }, () => {
  async function openUpload(roles?: string[], api: ApiRoutes = {}) {
    const page = await renderUsers({ roles, api });
    await screen.findByText('ana@example.com');
    fireEvent.click(screen.getByRole('button', { name: /Bulk upload/ }));
    return page;
  }

  const pick = (dialog: HTMLElement, name: string) =>
    fireEvent.change(dialog.querySelector('input[type="file"]')!, { target: { files: [new File(['x'], name)] } });

  it('refuses anything but an .xlsx file', async () => {
    await openUpload();
    fireEvent.click(await screen.findByText('Upload users'));
    const dialog = await dialogWith('Click or drag an Excel file');

    pick(dialog, 'users.csv');

    expect(await within(dialog).findByText('Extension not allowed')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('uploads the file and says it will be processed in the background, its result coming as a notification', async () => {
    const { fetchMock } = await openUpload(undefined, {
      'POST /api/v1/admin/users/bulk_insert': () => jsonResponse({ jobId: '0b9c8d7e-1f2a-4b3c-9d4e-5f6a7b8c9d0e' }, 202),
    });
    fireEvent.click(await screen.findByText('Upload users'));
    const dialog = await dialogWith('Click or drag an Excel file');

    pick(dialog, 'Users.xlsx');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await within(dialog).findByText('Upload Successful')).toBeInTheDocument();
    expect(within(dialog).getByText('This file will be processed in the background.')).toBeInTheDocument();
    // No result in the dialog: the import has not run yet.
    expect(within(dialog).queryByText(/imported|Row \d/)).not.toBeInTheDocument();
    // The file is sent once; another one must be chosen to upload again.
    expect(within(dialog).getByRole('button', { name: 'Upload' })).toBeDisabled();
    expect(formDataTo(fetchMock, 'POST /api/v1/admin/users/bulk_insert').map((form) => (form.get('file') as File).name)).toEqual(['Users.xlsx']);
  });

  it('shows the server’s message under "Upload Error" when the upload fails', async () => {
    await openUpload(undefined, {
      'POST /api/v1/admin/users/bulk_insert': jsonResponse({ code: 'import.bad_file', message: 'The file has no sheet' }, 400),
    });
    fireEvent.click(await screen.findByText('Upload users'));
    const dialog = await dialogWith('Click or drag an Excel file');
    pick(dialog, 'Users.xlsx');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await within(dialog).findByText('Upload Error')).toBeInTheDocument();
    expect(within(dialog).getByText('The file has no sheet')).toBeInTheDocument();
  });

  it('offers the user name change to Administrators only', async () => {
    await openUpload(['AreaAdministrator']);
    expect(await screen.findByText('Upload users')).toBeInTheDocument();
    expect(screen.queryByText('Change user names')).not.toBeInTheDocument();
  });

  it('lets an Administrator change user names in bulk, in the background', async () => {
    const { fetchMock } = await openUpload(['Administrator'], {
      'POST /api/v1/admin/users/changeUserName': () => jsonResponse({ jobId: '0b9c8d7e-1f2a-4b3c-9d4e-5f6a7b8c9d0f' }, 202),
    });
    fireEvent.click(await screen.findByText('Change user names'));
    const dialog = await dialogWith('Click or drag an Excel file');
    pick(dialog, 'names.XLSX');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await within(dialog).findByText('Upload Successful')).toBeInTheDocument();
    expect(within(dialog).getByText('This file will be processed in the background.')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'POST /api/v1/admin/users/changeUserName')).toHaveLength(1);
  });

  it('shows "Upload Error" when the server answers without a message', async () => {
    await openUpload(undefined, { 'POST /api/v1/admin/users/bulk_insert': () => new Response('', { status: 502 }) });
    fireEvent.click(await screen.findByText('Upload users'));
    const dialog = await dialogWith('Click or drag an Excel file');
    pick(dialog, 'Users.xlsx');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await within(dialog).findByText('Upload Error')).toBeInTheDocument();
    expect(within(dialog).queryByText('Upload Successful')).not.toBeInTheDocument();
  });
});

describe('UsersPage: deleting the selected users', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('deletes them one by one, counts the failures, then reloads the list', async () => {
    const deleted: string[] = [];
    const { fetchMock } = await renderUsers({
      api: {
        'DELETE /api/v1/admin/users/u1': () => {
          deleted.push('u1');
          return new Response(null, { status: 204 });
        },
        'DELETE /api/v1/admin/users/u2': jsonResponse({ code: 'users.protected', message: 'Cannot delete this user' }, 409),
      },
    });
    await screen.findByText('ana@example.com');
    const loadsBefore = sentTo(fetchMock, USERS).length;

    fireEvent.click(within(rowOf('ana@example.com')).getByRole('checkbox'));
    fireEvent.click(within(rowOf('bob@example.com')).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /Delete selected \(2\)/ }));
    fireEvent.click(within(await dialogWith('Delete the 2 selected elements?')).getByRole('button', { name: 'Delete' }));

    const progress = await dialogWith('1 deleted, 1 failed, of 2');
    expect(progress).toHaveTextContent('Cannot delete this user');
    expect(await screen.findByText('1 element deleted successfully')).toBeInTheDocument();
    expect(deleted).toEqual(['u1']);
    expect(sentTo(fetchMock, 'DELETE /api/v1/admin/users/u2')).toHaveLength(1);
    await waitFor(() => expect(sentTo(fetchMock, USERS).length).toBe(loadsBefore + 1));
    fireEvent.click(within(progress).getByText('Close'));
    expect(screen.getByRole('button', { name: /Delete selected$/ })).toBeDisabled();
  });

  it('goes back one page when the last page has emptied', async () => {
    sessionStorage.setItem(LIST_STORAGE_KEYS.users, JSON.stringify({ search: '', page: 3, pageSize: 10, sort: null, filters: {} }));
    const { fetchMock } = await renderUsers({
      api: {
        [USERS]: (request: Request) =>
          jsonResponse(new URL(request.url).searchParams.get('skip') === '20' ? list([], 20) : list([ana, bob], 20)),
      },
    });

    expect(await screen.findByText('ana@example.com')).toBeInTheDocument();
    expect(queriesTo(fetchMock, USERS).map((query) => query.skip)).toEqual(['20', '10']);
  });
});
