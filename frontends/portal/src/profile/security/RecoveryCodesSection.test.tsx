import { formatDateTime } from '@gatehouse/frontend-shared';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dialog, renderSecurity, RECOVERY, section, securityServer } from './security-test-server';

let saved: Array<{ name: string; blob: Blob }>;
let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;

beforeEach(() => {
  saved = [];
  const blobs = new Map<string, Blob>();
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        const href = `blob:codes-${blobs.size}`;
        blobs.set(href, blob);
        return href;
      },
      revokeObjectURL: () => undefined,
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
  writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const LISTED = RECOVERY.codes.map((code, index) => `${index + 1}. ${code}`);

describe('My security: recovery codes', () => {
  it('says how many are left and when they were made, and asks before replacing them', async () => {
    const server = securityServer({ recoveryCodes: { remaining: 7, generatedAt: '2026-02-01T10:00:00.000Z' } });
    await renderSecurity();
    const recovery = await section('Recovery codes');
    expect(within(recovery).getByText(`7 codes left, generated on ${formatDateTime('2026-02-01T10:00:00.000Z', { notSet: '' })}.`)).toBeInTheDocument();

    fireEvent.click(within(recovery).getByRole('button', { name: 'Generate new codes' }));
    const confirmation = await dialog('Generate new recovery codes?');
    expect(confirmation).toHaveTextContent('Your 7 remaining codes will stop working.');
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(confirmation).not.toBeInTheDocument());
    expect(server.sent('POST /api/v1/profile/recoveryCodes')).toEqual([]);

    fireEvent.click(within(recovery).getByRole('button', { name: 'Generate new codes' }));
    fireEvent.click(within(await dialog('Generate new recovery codes?')).getByRole('button', { name: 'Generate new codes' }));

    const codes = await dialog('Your recovery codes');
    expect(server.sent('POST /api/v1/profile/recoveryCodes')).toEqual([undefined]);
    expect(within(codes).getAllByRole('listitem').map((item, index) => `${index + 1}. ${item.textContent}`)).toEqual(LISTED);
  });

  it('shows the ten new codes once, to copy or download, until the user says they are saved', async () => {
    securityServer();
    await renderSecurity();
    const recovery = await section('Recovery codes');
    expect(within(recovery).getByText('You have no recovery codes.')).toBeInTheDocument();

    // None left: nothing to lose, so no confirmation.
    fireEvent.click(within(recovery).getByRole('button', { name: 'Generate recovery codes' }));
    const codes = await dialog('Your recovery codes');
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    // The only way out is to say they are saved: no close button, Escape does nothing.
    expect(within(codes).queryByRole('button', { name: /close/i })).not.toBeInTheDocument();
    fireEvent.keyDown(codes, { key: 'Escape' });
    expect(codes).toBeVisible();

    fireEvent.click(within(codes).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(RECOVERY.codes.join('\n')));

    fireEvent.click(within(codes).getByRole('button', { name: 'Download (.txt)' }));
    expect(saved.map((file) => file.name)).toEqual(['recovery-codes.txt']);
    const text = await saved[0]!.blob.text();
    expect(text).toContain(`Recovery codes, generated on ${formatDateTime(RECOVERY.generatedAt, { notSet: '' })}.`);
    for (const code of RECOVERY.codes) expect(text).toContain(`${code}\n`);

    fireEvent.click(within(codes).getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(codes).not.toBeInTheDocument());
    expect(document.body).not.toHaveTextContent(RECOVERY.codes[0]!);
    expect(await within(recovery).findByText(/^10 codes left, generated on /)).toBeInTheDocument();
  });

  it('shows the server’s reason when no codes could be made', async () => {
    const server = securityServer();
    server.once(
      'POST /api/v1/profile/recoveryCodes',
      new Response(JSON.stringify({ code: 'errors.too_many_requests', message: 'Too many requests. Try again in 30 seconds.', errors: [] }), {
        status: 429,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    await renderSecurity();
    const recovery = await section('Recovery codes');

    fireEvent.click(within(recovery).getByRole('button', { name: 'Generate recovery codes' }));

    const alert = await within(recovery).findByRole('alert');
    expect(alert).toHaveTextContent('The recovery codes could not be generated.');
    expect(alert).toHaveTextContent('Too many requests. Try again in 30 seconds.');
  });
});
