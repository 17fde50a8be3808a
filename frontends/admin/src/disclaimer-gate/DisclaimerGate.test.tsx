import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeAuth, jsonResponse, makeUser, renderApp } from '../test-utils';
import { gateTargetOf } from './gate-target';

// The test session's user is admin-1, signed in to the admin-console client.
const GATE = '/api/v1/profile/disclaimer/admin-1/admin-console';
const TEXT = 'Administrators keep what they see confidential.';

const notAccepted = { accepted: false, onAcceptedDate: null, version: 2, text: TEXT, textLanguage: 'en', languages: ['en', 'fr'] };
const accepted = { ...notAccepted, accepted: true, onAcceptedDate: '2025-01-31T13:05:09.000Z' };

const requestsOf = (fetchMock: Awaited<ReturnType<typeof renderApp>>['fetchMock']) =>
  fetchMock.mock.calls.map(([input]) => input as Request).map((request) => `${request.method} ${new URL(request.url).pathname}`);

async function dashboardShown() {
  return screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Admin' });
}

describe('DisclaimerGate', () => {
  it('asks the gate about the console’s own application and shows no dialog once it is accepted', async () => {
    const { fetchMock } = await renderApp({ api: { [`GET ${GATE}`]: accepted } });

    await dashboardShown();
    await waitFor(() => expect(requestsOf(fetchMock)).toContain(`GET ${GATE}`));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the text in a dialog that only Accept closes, posts the acceptance, then shows the console', async () => {
    const { fetchMock } = await renderApp({ api: { [`GET ${GATE}`]: notAccepted, [`POST ${GATE}`]: accepted } });

    const dialog = await screen.findByRole('dialog', { name: 'Disclaimer' });
    expect(within(dialog).getByText(TEXT)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /close/i }), 'no close button').not.toBeInTheDocument();
    fireEvent.keyDown(dialog, { key: 'Escape', code: 'Escape', keyCode: 27 });
    fireEvent.click(document.querySelector('.ant-modal-wrap')!);
    expect(screen.getByRole('dialog', { name: 'Disclaimer' }), 'neither Escape nor a click beside it closes it').toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const post = fetchMock.mock.calls.map(([input]) => input as Request).find((request) => request.method === 'POST')!;
    expect(new URL(post.url).pathname).toBe(GATE);
    expect(await post.text(), 'an empty body').toBe('');
    expect(await dashboardShown()).toBeInTheDocument();
  });

  it('says in the reader’s language when the terms exist only in another language, naming it', async () => {
    const french = { ...notAccepted, text: 'Les administrateurs gardent confidentiel ce qu’ils voient.', textLanguage: 'fr', languages: ['fr'] };
    const { unmount } = await renderApp({ api: { [`GET ${GATE}`]: french } });

    const dialog = await screen.findByRole('dialog', { name: 'Disclaimer' });
    expect(within(dialog).getByRole('note')).toHaveTextContent('These terms exist only in French.');
    expect(within(dialog).getByText(french.text)).toHaveAttribute('lang', 'fr');
    unmount();

    await renderApp({ api: { [`GET ${GATE}`]: french }, language: 'de' });
    expect(within(await screen.findByRole('dialog')).getByRole('note')).toHaveTextContent('Diese Bedingungen gibt es nur auf Französisch.');
  });

  it('says nothing about the language when the terms exist in the reader’s', async () => {
    await renderApp({ api: { [`GET ${GATE}`]: notAccepted } });
    const dialog = await screen.findByRole('dialog', { name: 'Disclaimer' });
    expect(within(dialog).getByText(TEXT)).toBeInTheDocument();
    expect(within(dialog).queryByRole('note')).not.toBeInTheDocument();
  });

  it('keeps the dialog, with the error, when the acceptance fails', async () => {
    await renderApp({
      api: {
        [`GET ${GATE}`]: notAccepted,
        [`POST ${GATE}`]: jsonResponse({ code: 'errors.service_unavailable', message: 'The service is temporarily unavailable' }, 503),
      },
    });

    const dialog = await screen.findByRole('dialog', { name: 'Disclaimer' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));

    expect(await within(dialog).findByText('The service is temporarily unavailable')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Disclaimer' })).toBeInTheDocument();
  });

  it('shows no gate when the question fails', async () => {
    const { fetchMock } = await renderApp({
      api: { [`GET ${GATE}`]: jsonResponse({ code: 'errors.internal', message: 'An unexpected error occurred. Reference: r1' }, 500) },
    });

    await dashboardShown();
    await waitFor(() => expect(requestsOf(fetchMock)).toContain(`GET ${GATE}`));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText('An unexpected error occurred. Reference: r1')).not.toBeInTheDocument();
  });

  it('names the application the ID token was issued to: azp, else its audience', () => {
    expect(gateTargetOf(makeUser())).toEqual({ userId: 'admin-1', applicationName: 'admin-console' });
    const withAzp = new FakeAuth(makeUser()).getUser()!;
    withAzp.profile = { ...withAzp.profile, aud: ['admin-console', 'admin-api'], azp: 'console-client' };
    expect(gateTargetOf(withAzp)).toEqual({ userId: 'admin-1', applicationName: 'console-client' });
    expect(gateTargetOf(null)).toBeUndefined();
  });
});
