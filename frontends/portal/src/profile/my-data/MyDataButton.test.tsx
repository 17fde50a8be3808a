import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n, jsonResponse, renderSignedIn, stubApi } from '../../test-utils';
import { MyDataButton } from './MyDataButton';

const MY_DATA = 'GET /api/v1/profile/myData';
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
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:my-data', revokeObjectURL: () => undefined }));
});

afterEach(() => {
  vi.restoreAllMocks();
});

const workbook = (disposition = 'attachment; filename="My data.xlsx"') =>
  new Response(new Uint8Array([0x50, 0x4b, 3, 4]), { headers: { 'Content-Type': XLSX, 'Content-Disposition': disposition } });

describe('MyDataButton', () => {
  it('downloads the user’s data with their token and language and saves it as "My data.xlsx"', async () => {
    const fetchMock = stubApi({ [MY_DATA]: workbook() });
    renderSignedIn(<MyDataButton />, { i18n });

    fireEvent.click(screen.getByRole('button', { name: /My data/ }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.download).toBe('My data.xlsx');
    expect(saved[0]!.href).toBe('blob:my-data');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(new URL(String(url)).pathname).toBe('/api/v1/profile/myData');
    const headers = new Headers(init!.headers);
    expect(headers.get('Authorization')).toBe('DPoP access-1');
    expect(headers.get('DPoP')).toBe('fake-proof GET http://localhost:3000/api/v1/profile/myData');
    expect(headers.get('Accept-Language')).toBe('en');
  });

  it('saves the file under the name the server gives in the user’s language', async () => {
    stubApi({ [MY_DATA]: workbook(`attachment; filename="Mes donnees.xlsx"; filename*=UTF-8''Mes%20donn%C3%A9es.xlsx`) });
    renderSignedIn(<MyDataButton />, { i18n });
    fireEvent.click(screen.getByRole('button', { name: /My data/ }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.download).toBe('Mes données.xlsx');
  });

  it('is busy while the file comes', async () => {
    let answer: (response: Response) => void = () => {};
    stubApi({ [MY_DATA]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderSignedIn(<MyDataButton />, { i18n });
    const button = screen.getByRole('button', { name: /My data/ });

    fireEvent.click(button);

    await waitFor(() => expect(button).toHaveClass('ant-btn-loading'));
    answer(workbook());
    await waitFor(() => expect(button).not.toHaveClass('ant-btn-loading'));
    expect(saved).toHaveLength(1);
  });

  it('shows the server’s message when the download is refused, and saves nothing', async () => {
    stubApi({ [MY_DATA]: jsonResponse({ code: 'errors.internal', message: 'An unexpected error occurred. Reference: r-1', errors: [] }, 500) });
    renderSignedIn(<MyDataButton />, { i18n });
    fireEvent.click(screen.getByRole('button', { name: /My data/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An unexpected error occurred. Reference: r-1');
    expect(saved).toHaveLength(0);
  });

  it('says the download failed when the server cannot be reached', async () => {
    stubApi({
      [MY_DATA]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderSignedIn(<MyDataButton />, { i18n });
    fireEvent.click(screen.getByRole('button', { name: /My data/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your data could not be downloaded.');
  });
});
