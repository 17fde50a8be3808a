import { createHash } from 'node:crypto';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestI18n, jsonResponse, renderSignedIn, stubApi } from '../../test-utils';
import { AvatarUpload } from './AvatarUpload';

const UPLOAD = 'POST /api/v1/profile/avatar';
const JANE = createHash('sha256').update('jane@example.com').digest('hex');

let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
});

function renderUpload(routes: Record<string, unknown> = {}, src?: string) {
  const fetchMock = stubApi(routes);
  const result = renderSignedIn(<AvatarUpload src={src} />, { i18n });
  const input = result.container.querySelector<HTMLInputElement>('input[type="file"]')!;
  return { ...result, fetchMock, input };
}

const picture = () => screen.getByRole<HTMLImageElement>('img', { name: 'Your picture' });
const pick = (input: HTMLInputElement, file: File) => fireEvent.change(input, { target: { files: [file] } });
const fileOf = (bytes: number, name = 'me.png') => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

describe('AvatarUpload', () => {
  it('shows the user’s picture by the hash of their e-mail, at 180 pixels', async () => {
    const { input } = renderUpload();
    await waitFor(() => expect(picture()).toHaveAttribute('src', `/api/v1/avatar/${JANE}?size=180`));
    expect(picture()).toHaveAttribute('width', '180');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp,image/gif');
    expect(screen.getByRole('button', { name: /Upload a picture/ })).toBeInTheDocument();
  });

  it('shows the versioned address the profile gives, so a reload after an upload shows the new picture', async () => {
    renderUpload({}, `/api/v1/avatar/${JANE}?size=180&v=0123456789abcdef`);
    await waitFor(() => expect(picture()).toHaveAttribute('src', `/api/v1/avatar/${JANE}?size=180&v=0123456789abcdef`));
  });

  it('falls back to the default picture when the user’s cannot be shown', async () => {
    renderUpload();
    await waitFor(() => expect(picture()).toHaveAttribute('src', `/api/v1/avatar/${JANE}?size=180`));
    fireEvent.error(picture());
    expect(picture()).toHaveAttribute('src', '/api/v1/avatar/default?size=180');
  });

  it('refuses a picture over 2 MB without sending it', async () => {
    const { input, fetchMock } = renderUpload({ [UPLOAD]: { success: true, url: '/x' } });
    pick(input, fileOf(2 * 1024 * 1024 + 1));
    expect(await screen.findByRole('alert')).toHaveTextContent('The picture is larger than 2 MB. Please choose a smaller one.');
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });

  it('uploads the picture with the user’s token, says so, and shows the new picture', async () => {
    const newUrl = `/api/v1/avatar/${JANE}?size=180&v=0123456789abcdef`;
    const { input, fetchMock } = renderUpload({ [UPLOAD]: jsonResponse({ success: true, url: newUrl }) });
    await waitFor(() => expect(picture()).toHaveAttribute('src', `/api/v1/avatar/${JANE}?size=180`));
    const file = fileOf(1024, 'holiday.jpg');
    pick(input, file);

    expect(await screen.findByRole('status')).toHaveTextContent('Image uploaded successfully');
    expect(picture()).toHaveAttribute('src', newUrl);
    const [url, init] = fetchMock.mock.calls.find(([, request]) => request?.method === 'POST')!;
    expect(new URL(String(url)).pathname).toBe('/api/v1/profile/avatar');
    expect(new Headers(init!.headers).get('Authorization')).toBe('DPoP access-1');
    expect(new Headers(init!.headers).get('DPoP')).toBe('fake-proof POST http://localhost:3000/api/v1/profile/avatar');
    expect(((init!.body as FormData).get('file') as File).name).toBe('holiday.jpg');
  });

  it('shows the server’s reason when it refuses the picture', async () => {
    const refusal = jsonResponse({ code: 'avatar.not_an_image', message: 'This file is not a picture: upload a PNG, JPEG, WebP or GIF image', errors: [] }, 400);
    const { input } = renderUpload({ [UPLOAD]: refusal });
    pick(input, fileOf(100, 'notes.png'));
    expect(await screen.findByRole('alert')).toHaveTextContent('This file is not a picture: upload a PNG, JPEG, WebP or GIF image');
    expect(screen.queryByText('Image uploaded successfully')).not.toBeInTheDocument();
  });

  it('says the upload failed when the server cannot be reached', async () => {
    const { input } = renderUpload({
      [UPLOAD]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    pick(input, fileOf(100));
    expect(await screen.findByRole('alert')).toHaveTextContent('The picture could not be uploaded.');
  });
});
