import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestI18n, jsonResponse, makeUser, renderSignedIn, FakeAuth } from '../test-utils';
import { documentsProblem } from './rights-form-rules';
import RightsPage, { SENT_VISIBLE_MS } from './RightsPage';

const URL_PATH = '/api/v1/profile/excerciseRights';

let i18n: I18n;
// jsdom lays nothing out and has no scrollIntoView: a spy stands in for it.
const scrollIntoView = vi.fn();

beforeAll(async () => {
  i18n = await createTestI18n('en');
  Element.prototype.scrollIntoView = scrollIntoView;
});

afterAll(() => {
  delete (Element.prototype as Partial<Element>).scrollIntoView;
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  scrollIntoView.mockClear();
});

/** A plain fetch mock: the body must reach fetch as the FormData itself (jsdom's would not survive Node's Request). */
function stubFetch(answer: () => Response = () => jsonResponse({ success: true, errors: [] })) {
  const fetchMock = vi.fn(async (_url: URL | string, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const sentTo = (fetchMock: ReturnType<typeof stubFetch>) => fetchMock.mock.calls.filter(([url]) => String(url).endsWith(URL_PATH));

const field = (label: string) => screen.getByLabelText(label);

function fileOf(name: string, bytes = 10, type = 'application/pdf'): File {
  return new File([new Uint8Array(bytes)], name, { type });
}

function renderPage() {
  const auth = new FakeAuth(makeUser({}, { accessToken: 'token-ann' }));
  return renderSignedIn(<RightsPage />, { i18n, auth });
}

/** Types the date and confirms it, as a keyboard user does. */
function pickDate(text: string) {
  const input = field('Request date');
  fireEvent.mouseDown(input);
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
}

async function addDocuments(container: HTMLElement, files: File[]) {
  const input = container.querySelector<HTMLInputElement>('input[type="file"]')!;
  fireEvent.change(input, { target: { files } });
  for (const file of files) await screen.findByText(file.name);
}

async function fillValidRequest(container: HTMLElement) {
  pickDate('24/11/2025');
  fireEvent.change(field('Name of the interested person'), { target: { value: '  Ann Example ' } });
  fireEvent.change(field('E-mail'), { target: { value: 'ann@example.com' } });
  fireEvent.click(screen.getByLabelText('Direct: I am the interested person'));
  fireEvent.click(screen.getByLabelText('Access'));
  fireEvent.click(screen.getByLabelText('Erasure'));
  fireEvent.change(field('Request details'), { target: { value: 'A copy, please.' } });
  await addDocuments(container, [fileOf('passport.pdf', 1200), fileOf('selfie.jpg', 800, 'image/jpeg')]);
}

const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send request' }));

describe('RightsPage', () => {
  it('shows the intro beside the request form', () => {
    stubFetch();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Exercise your rights' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Your request' })).toBeInTheDocument();
    expect(screen.getByText(/Attach a document that proves your identity/)).toBeInTheDocument();
    for (const right of ['Access', 'Information', 'Rectification', 'Objection to processing', 'Erasure', 'Data portability']) {
      expect(screen.getByLabelText(right)).toBeInTheDocument();
    }
  });

  it('asks for every required field with the spec’s messages, and sends nothing', async () => {
    const fetchMock = stubFetch();
    renderPage();
    send();
    for (const message of [
      'Please select the request date!',
      'Please input the name of the interested!',
      'Please input the email!',
      'Please select the request type!',
      'Please check at least one right to exercise!',
      'Please add the required documents!',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(sentTo(fetchMock)).toHaveLength(0);
  });

  it('refuses an invalid e-mail address', async () => {
    stubFetch();
    renderPage();
    fireEvent.change(field('E-mail'), { target: { value: 'ann@' } });
    send();
    expect(await screen.findByText('Please type a valid email!')).toBeInTheDocument();
  });

  it('asks for the representative’s data only for a request through a representative', async () => {
    stubFetch();
    renderPage();
    expect(screen.queryByLabelText('Representative data')).not.toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('Representative: I act on their behalf'));
    expect(await screen.findByLabelText('Representative data')).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('Direct: I am the interested person'));
    await waitFor(() => expect(screen.queryByLabelText('Representative data')).not.toBeInTheDocument());
  });

  it('refuses documents over 2 MB together, or of another type, before sending', async () => {
    const fetchMock = stubFetch();
    const { container } = renderPage();
    await fillValidRequest(container);
    await addDocuments(container, [fileOf('scan.png', 2 * 1024 * 1024 - 1000, 'image/png')]);
    send();
    expect(await screen.findByText('2MB files size limit exceeded')).toBeInTheDocument();
    expect(sentTo(fetchMock)).toHaveLength(0);

    expect(documentsProblem([{ name: 'virus.exe', size: 10 }, { name: 'id.PDF', size: 10 }, { name: 'notes.txt', size: 1 }], i18n.getFixedT('en', 'portal'))).toBe(
      'Only pdf, doc, docx, png, jpg and jpeg files are allowed: virus.exe, notes.txt',
    );
    expect(documentsProblem([{ name: 'a.pdf', size: 1024 * 1024 }, { name: 'b.jpeg', size: 1024 * 1024 }], i18n.getFixedT('en', 'portal'))).toBeUndefined();
  });

  it('sends the request as the spec’s multipart call, shows "Request sent successfully" for 4 s and starts again empty', async () => {
    // Timers the test moves on by hand, while the rest of the time flows as usual.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubFetch();
    const { container } = renderPage();
    await fillValidRequest(container);
    send();

    expect(await screen.findByText('Request sent successfully')).toBeInTheDocument();
    const calls = sentTo(fetchMock) as Array<[URL, RequestInit]>;
    expect(calls).toHaveLength(1);
    const [url, init] = calls[0]!;
    expect(String(url)).toBe(`http://localhost:3000${URL_PATH}`);
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Authorization')).toBe('DPoP token-ann');
    expect(new Headers(init.headers).get('DPoP')).toBe(`fake-proof POST http://localhost:3000${URL_PATH}`);
    const body = init.body as FormData;
    expect(Object.fromEntries([...body.entries()].filter(([, value]) => typeof value === 'string'))).toEqual({
      requestDate: '24/11/2025',
      fullName: 'Ann Example',
      email: 'ann@example.com',
      requestType: 'Direct',
      rightsToExcercise: '["Access","Supression"]',
      requestDetails: 'A copy, please.',
    });
    expect(body.getAll('files[]').map((file) => (file as File).name)).toEqual(['passport.pdf', 'selfie.jpg']);

    // The form starts again empty.
    expect(field('Name of the interested person')).toHaveValue('');
    expect(screen.queryByText('passport.pdf')).not.toBeInTheDocument();

    act(() => {
      vi.advanceTimersByTime(SENT_VISIBLE_MS / 2);
    });
    expect(screen.getByText('Request sent successfully')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(SENT_VISIBLE_MS / 2);
    });
    expect(screen.queryByText('Request sent successfully')).not.toBeInTheDocument();
  });

  it('brings the outcome into sight, above the form the user scrolled down to send', async () => {
    stubFetch();
    const { container } = renderPage();
    await fillValidRequest(container);
    expect(scrollIntoView).not.toHaveBeenCalled();
    send();

    await screen.findByText('Request sent successfully');
    await waitFor(() => expect(scrollIntoView).toHaveBeenCalledWith({ block: 'center' }));
    expect(scrollIntoView.mock.contexts.at(-1)).toHaveTextContent('Request sent successfully');
  });

  it('brings a refusal into sight as well', async () => {
    stubFetch(() => jsonResponse({ code: 'errors.too_many_requests', message: 'Too many requests. Try again in 60 seconds.', errors: [] }, 429));
    const { container } = renderPage();
    await fillValidRequest(container);
    send();

    await screen.findByRole('alert');
    await waitFor(() => expect(scrollIntoView).toHaveBeenCalledWith({ block: 'center' }));
    expect(scrollIntoView.mock.contexts.at(-1)).toHaveTextContent('Too many requests. Try again in 60 seconds.');
  });

  it('shows the server’s messages in an alert when it refuses the request, and keeps what was typed', async () => {
    stubFetch(() =>
      jsonResponse(
        {
          code: 'errors.validation',
          message: 'The request is not valid',
          errors: [
            { field: 'files', code: 'rights.content_mismatch', message: 'passport.pdf is not really a pdf file: its content is of another type' },
            { field: 'email', code: 'rights.email_invalid', message: 'Please type a valid email!' },
          ],
        },
        400,
      ),
    );
    const { container } = renderPage();
    await fillValidRequest(container);
    send();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The request could not be sent');
    expect(alert).toHaveTextContent('passport.pdf is not really a pdf file: its content is of another type');
    expect(alert).toHaveTextContent('Please type a valid email!');
    expect(field('Name of the interested person')).toHaveValue('  Ann Example ');
    expect(screen.queryByText('Request sent successfully')).not.toBeInTheDocument();
  });

  it('shows the server’s message when it names no field (too many requests)', async () => {
    stubFetch(() => jsonResponse({ code: 'errors.too_many_requests', message: 'Too many requests. Try again in 60 seconds.', errors: [] }, 429));
    const { container } = renderPage();
    await fillValidRequest(container);
    send();
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Try again in 60 seconds.');
  });
});
