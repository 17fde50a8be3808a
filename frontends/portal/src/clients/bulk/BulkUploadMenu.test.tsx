import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n, jsonResponse, renderSignedIn, stubApi } from '../../test-utils';
import { BulkUploadMenu } from './BulkUploadMenu';

const TENANT = '10000000-0000-0000-0000-000000000001';
const TEMPLATE = 'GET /api/v1/profile/template/operationRequests';
const FULL_TEMPLATE = 'GET /api/v1/profile/template/fullUserWithOperationRequest';
const UPLOAD = `POST /api/v1/profile/bulk_insert/operationRequests/${TENANT}`;
const FULL_UPLOAD = `POST /api/v1/profile/full_bulk_insert/operationRequests/${TENANT}`;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let i18n: I18n;
let saved: HTMLAnchorElement[];

beforeAll(async () => {
  i18n = await createTestI18n('en');
});

beforeEach(() => {
  saved = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this);
  });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:template', revokeObjectURL: () => undefined }));
});

afterEach(() => {
  vi.restoreAllMocks();
});

const workbook = (fileName: string) =>
  new Response(new Uint8Array([0x50, 0x4b, 3, 4]), { headers: { 'Content-Type': XLSX, 'Content-Disposition': `attachment; filename="${fileName}"` } });

/** The requests fetch received for a route ('POST /path'), as the component sent them. */
function sent(fetchMock: ReturnType<typeof stubApi>, route: string): Array<{ url: URL; init: RequestInit }> {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input)), init: init ?? {} }))
    .filter(({ url, init }) => `${init.method ?? 'GET'} ${url.pathname}` === route);
}

async function openMenu() {
  fireEvent.click(screen.getByRole('button', { name: /Bulk upload/ }));
  return screen.findByRole('menu');
}

async function openUpload(optionLabel: string): Promise<HTMLElement> {
  const menu = await openMenu();
  const group = within(menu).getByText(optionLabel).closest('.ant-dropdown-menu-item-group')! as HTMLElement;
  fireEvent.click(within(group).getByText('Upload a file'));
  return screen.findByRole('dialog');
}

function chooseFile(dialog: HTMLElement, name: string) {
  fireEvent.change(dialog.querySelector('input[type="file"]')!, { target: { files: [new File(['x'], name)] } });
}

describe('BulkUploadMenu', () => {
  it('offers each bulk option with its label, its template and its upload', async () => {
    stubApi({});
    renderSignedIn(<BulkUploadMenu tenantId={TENANT} />, { i18n });
    const menu = await openMenu();
    for (const label of ['Access requests for existing users', 'New users with their access requests']) {
      const group = within(menu).getByText(label).closest('.ant-dropdown-menu-item-group') as HTMLElement;
      expect(within(group).getByText('Download the template')).toBeInTheDocument();
      expect(within(group).getByText('Upload a file')).toBeInTheDocument();
    }
  });

  it('downloads each template with the user’s token and language, under the server’s name', async () => {
    const fetchMock = stubApi({ [TEMPLATE]: workbook('OperationRequestsTemplate.xlsx'), [FULL_TEMPLATE]: workbook('FullUserWithOperationRequestTemplate.xlsx') });
    renderSignedIn(<BulkUploadMenu tenantId={undefined} />, { i18n });

    let menu = await openMenu();
    fireEvent.click(within(menu).getAllByText('Download the template')[0]!);
    await waitFor(() => expect(saved).toHaveLength(1));
    menu = await openMenu();
    fireEvent.click(within(menu).getAllByText('Download the template')[1]!);
    await waitFor(() => expect(saved).toHaveLength(2));

    expect(saved.map((link) => link.download)).toEqual(['OperationRequestsTemplate.xlsx', 'FullUserWithOperationRequestTemplate.xlsx']);
    const [call] = sent(fetchMock, TEMPLATE);
    const headers = new Headers(call!.init.headers);
    expect(headers.get('Authorization')).toBe('DPoP access-1');
    expect(headers.get('DPoP')).toMatch(/^fake-proof GET http:\/\/localhost:3000\/\S+$/);
    expect(headers.get('Accept-Language')).toBe('en');
  });

  it('shows the server’s message when a template is refused', async () => {
    stubApi({ [TEMPLATE]: jsonResponse({ code: 'errors.forbidden', message: 'You do not have permission to perform this action', errors: [] }, 403) });
    renderSignedIn(<BulkUploadMenu tenantId={TENANT} />, { i18n });
    const menu = await openMenu();
    fireEvent.click(within(menu).getAllByText('Download the template')[0]!);
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission to perform this action');
    expect(saved).toHaveLength(0);
  });

  it('uploads a filled template to the selected tenant and says it will be processed in the background', async () => {
    const fetchMock = stubApi({ [UPLOAD]: () => jsonResponse({ jobId: '0b9c8d7e-1f2a-4b3c-9d4e-5f6a7b8c9d1b' }, 202) });
    renderSignedIn(<BulkUploadMenu tenantId={TENANT} />, { i18n });

    const dialog = await openUpload('Access requests for existing users');
    expect(dialog).toHaveTextContent('Upload: Access requests for existing users');
    chooseFile(dialog, 'requests.xlsx');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await within(dialog).findByText('Operation Completed Successfully')).toBeInTheDocument();
    expect(within(dialog).getByText('Your operation will be processed in background. The result will appear in your notifications.')).toBeInTheDocument();
    const [call, ...more] = sent(fetchMock, UPLOAD);
    expect(more).toHaveLength(0);
    expect(((call!.init.body as FormData).get('file') as File).name).toBe('requests.xlsx');
    expect(new Headers(call!.init.headers).get('Authorization')).toBe('DPoP access-1');
    expect(new Headers(call!.init.headers).get('DPoP')).toMatch(/^fake-proof POST http:\/\/localhost:3000\/\S+$/);
  });

  it('uploads new users with their requests to the full upload', async () => {
    const fetchMock = stubApi({ [FULL_UPLOAD]: () => jsonResponse({ jobId: '0b9c8d7e-1f2a-4b3c-9d4e-5f6a7b8c9d1c' }, 202) });
    renderSignedIn(<BulkUploadMenu tenantId={TENANT} />, { i18n });
    const dialog = await openUpload('New users with their access requests');
    chooseFile(dialog, 'users.xlsx');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('Operation Completed Successfully')).toBeInTheDocument();
    expect(sent(fetchMock, FULL_UPLOAD)).toHaveLength(1);
    expect(sent(fetchMock, UPLOAD)).toHaveLength(0);
  });

  it('shows the server’s refusal of a file', async () => {
    stubApi({ [UPLOAD]: jsonResponse({ code: 'import.missing_columns', message: 'The first row of the file must name the columns; missing: Role', errors: [] }, 400) });
    renderSignedIn(<BulkUploadMenu tenantId={TENANT} />, { i18n });
    const dialog = await openUpload('Access requests for existing users');
    chooseFile(dialog, 'requests.xlsx');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Upload Error');
    expect(alert).toHaveTextContent('The first row of the file must name the columns; missing: Role');
  });

  it('refuses another file type before sending anything', async () => {
    const fetchMock = stubApi({});
    renderSignedIn(<BulkUploadMenu tenantId={TENANT} />, { i18n });
    const dialog = await openUpload('Access requests for existing users');
    chooseFile(dialog, 'requests.csv');
    expect(await within(dialog).findByText('Extension not allowed')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Upload' })).toBeDisabled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('waits for a tenant before anything can be uploaded', async () => {
    stubApi({});
    renderSignedIn(<BulkUploadMenu tenantId={undefined} />, { i18n });
    const menu = await openMenu();
    const uploads = within(menu).getAllByText(/Upload a file/);
    expect(uploads).toHaveLength(2);
    for (const item of uploads) {
      expect(item).toHaveTextContent('(Select Tenant...)');
      expect(item.closest('[role="menuitem"]')).toHaveAttribute('aria-disabled', 'true');
    }
  });

  it('speaks the user’s language', async () => {
    const fr = await createTestI18n('fr');
    stubApi({});
    renderSignedIn(<BulkUploadMenu tenantId={TENANT} />, { i18n: fr });
    fireEvent.click(screen.getByRole('button', { name: /Import en masse/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Demandes d’accès pour des utilisateurs existants')).toBeInTheDocument();
    expect(within(menu).getAllByText('Télécharger le modèle')).toHaveLength(2);
  });
});
