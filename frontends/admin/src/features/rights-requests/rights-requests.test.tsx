import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage } from '../../test-utils';
import { bodyRows, list, localDateTime, PAGE_TEST_TIMEOUT, queriesTo, sentTo } from '../directory/test-helpers';
import RightsRequestsPage from './RightsRequestsPage';
import type { RightsRequestDetail, RightsRequestSummary } from './rights-requests-api';

const LIST = 'GET /api/v1/admin/rightsRequests';

const BEN: RightsRequestSummary = {
  id: '11111111-1111-1111-1111-111111111111',
  createdAt: '2025-11-24T09:30:00.000Z',
  requestDate: '2025-11-24',
  fullName: 'Ben Example',
  email: 'ben@example.com',
  requestType: 'Representative',
  rights: ['Access', 'Supression'],
  userId: 'u-1',
  userName: 'ben.account@example.com',
  fileCount: 2,
};
const ANN: RightsRequestSummary = { ...BEN, id: '22222222-2222-2222-2222-222222222222', fullName: 'Ann Older', email: 'ann@example.com', requestType: 'Direct', rights: ['DataPortability'], fileCount: 1 };

const BEN_DETAIL: RightsRequestDetail = {
  ...BEN,
  representativeData: 'Counsel Ada Lovelace',
  requestDetails: 'Please send me a copy.',
  files: [
    { id: 'f-1', fileName: 'passport.pdf', contentType: 'application/pdf', size: 120 * 1024 },
    { id: 'f-2', fileName: 'mandate.png', contentType: 'image/png', size: 300 },
  ],
};

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('RightsRequestsPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('lists the requests newest first, with their type, rights and number of documents', async () => {
    const { fetchMock } = await renderPage(<RightsRequestsPage />, { route: '/rights-requests', api: { [LIST]: list([BEN, ANN], 2) } });

    expect(await screen.findByText('Ben Example')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Rights requests' })).toBeInTheDocument();
    const [first, second] = bodyRows();
    expect(first).toHaveTextContent(localDateTime(BEN.createdAt));
    expect(first).toHaveTextContent('24-11-2025');
    expect(first).toHaveTextContent('Representative');
    expect(first).toHaveTextContent('Access');
    expect(first).toHaveTextContent('Erasure');
    expect(second).toHaveTextContent('Ann Older');
    expect(second).toHaveTextContent('Data portability');
    expect(queriesTo(fetchMock, LIST)[0]).toEqual({ skip: '0', top: '10', orderBy: 'createdAt desc' });
  });

  it('shows a request with its texts, and downloads a document with the administrator’s token', async () => {
    const { fetchMock } = await renderPage(<RightsRequestsPage />, {
      route: '/rights-requests',
      api: {
        [LIST]: list([BEN], 1),
        [`GET /api/v1/admin/rightsRequests/${BEN.id}`]: BEN_DETAIL,
        [`GET /api/v1/admin/rightsRequests/${BEN.id}/files/f-1`]: new Response('%PDF-1.4', {
          headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': "attachment; filename=\"passport.pdf\"; filename*=UTF-8''passport.pdf" },
        }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'View the request of Ben Example' }));

    // antd names every labelled element "test-id" under test: the title is looked for inside instead.
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Request of Ben Example')).toBeInTheDocument();
    expect(within(drawer).getByText('Counsel Ada Lovelace')).toBeInTheDocument();
    expect(within(drawer).getByText('Please send me a copy.')).toBeInTheDocument();
    expect(within(drawer).getByText('ben.account@example.com')).toBeInTheDocument();
    expect(within(drawer).getByText('120 KB')).toBeInTheDocument();

    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:document', revokeObjectURL: () => undefined }));
    const saved: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this);
    });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Download passport.pdf' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.download).toBe('passport.pdf');
    const [download] = sentTo(fetchMock, `GET /api/v1/admin/rightsRequests/${BEN.id}/files/f-1`);
    expect(download!.headers.get('Authorization')).toMatch(/^DPoP /);
    expect(download!.headers.get('DPoP')).toBe(`fake-proof GET http://localhost:3000/api/v1/admin/rightsRequests/${BEN.id}/files/f-1`);
  });

  it('shows the server’s message when a document cannot be downloaded', async () => {
    await renderPage(<RightsRequestsPage />, {
      route: '/rights-requests',
      api: {
        [LIST]: list([BEN], 1),
        [`GET /api/v1/admin/rightsRequests/${BEN.id}`]: BEN_DETAIL,
        [`GET /api/v1/admin/rightsRequests/${BEN.id}/files/f-2`]: jsonResponse({ code: 'errors.not_found', message: 'Not found', errors: [] }, 404),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'View the request of Ben Example' }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Download mandate.png' }));
    expect(await within(drawer).findByText('Not found')).toBeInTheDocument();
  });
});
