import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestI18n, jsonResponse, renderSignedIn, stubApi } from '../test-utils';
import type { DisclaimerItem, DisclaimersPage as Page } from './disclaimers-api';
import DisclaimersPage from './DisclaimersPage';

const LIST = 'GET /api/v1/profile/disclaimers';
// Local time, so that the expected text does not depend on the machine's time zone.
const ACCEPTED_AT = new Date(2025, 0, 31, 14, 5, 9);

let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
});

function item(overrides: Partial<DisclaimerItem> & Pick<DisclaimerItem, 'appInfoId' | 'displayAppName'>): DisclaimerItem {
  return {
    appName: overrides.appInfoId,
    privateUrl: null,
    icon: null,
    version: 1,
    text: `Terms of ${overrides.displayAppName}.`,
    textLanguage: 'en',
    languages: ['en'],
    accepted: false,
    onAcceptedDate: null,
    ...overrides,
  };
}

const page = (items: DisclaimerItem[]): Page => ({ items, count: items.length });

const WIKI = item({ appInfoId: 'wiki', displayAppName: 'Wiki', accepted: true, onAcceptedDate: ACCEPTED_AT.toISOString() });
const CRM = item({ appInfoId: 'crm', displayAppName: 'CRM', version: 3, text: 'Use the CRM for company business only.' });

/** Answers the list from `pages` in turn (the last one again once they run out); records every request. */
function stubList(pages: Page[], extra: Record<string, unknown> = {}) {
  let calls = 0;
  const fetchMock = stubApi({ [LIST]: () => jsonResponse(pages[Math.min(calls++, pages.length - 1)]), ...extra });
  const requests = () => fetchMock.mock.calls.map(([input]) => input as Request);
  return { listCalls: () => calls, requests };
}

const card = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('li')!;

describe('DisclaimersPage', () => {
  it('lists each application with its icon and name, its text, and Accept or a green check with the acceptance date', async () => {
    stubList([page([WIKI, CRM])]);
    renderSignedIn(<DisclaimersPage />, { i18n });

    expect(screen.getByRole('heading', { level: 1, name: 'Disclaimers' })).toBeInTheDocument();
    const crm = await screen.findByRole('heading', { level: 2, name: 'CRM' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(['Wiki', 'CRM']);

    const wiki = card('Wiki');
    expect(within(wiki).getByText('Accepted on 31-01-2025 14:05:09')).toBeInTheDocument();
    expect(wiki.querySelector('.disclaimer-card__check')).not.toBeNull();
    expect(within(wiki).queryByRole('button')).not.toBeInTheDocument();
    expect(wiki.querySelector('img')).toHaveAttribute('src', '/api/v1/applications/icon/wiki');

    const crmCard = crm.closest('li')!;
    expect(within(crmCard).getByRole('region', { name: 'CRM' })).toHaveTextContent('Use the CRM for company business only.');
    expect(within(crmCard).getByRole('button', { name: 'Accept the disclaimer of CRM' })).toBeInTheDocument();
    expect(within(crmCard).queryByText(/Accepted on/)).not.toBeInTheDocument();
  });

  it('asks for a confirmation, accepts the version shown, and reads the list again', async () => {
    const accepted = { ...CRM, accepted: true, onAcceptedDate: ACCEPTED_AT.toISOString() };
    const { listCalls, requests } = stubList([page([WIKI, CRM]), page([WIKI, accepted])], {
      'PUT /api/v1/profile/disclaimer/crm': accepted,
    });
    renderSignedIn(<DisclaimersPage />, { i18n });

    fireEvent.click(await screen.findByRole('button', { name: 'Accept the disclaimer of CRM' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accept the disclaimer of CRM?' });
    expect(requests().some((request) => request.method === 'PUT'), 'nothing is sent before the confirmation').toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));

    await waitFor(() => expect(within(card('CRM')).getByText('Accepted on 31-01-2025 14:05:09')).toBeInTheDocument());
    const put = requests().find((request) => request.method === 'PUT')!;
    expect(await put.json()).toEqual({ version: 3 });
    expect(listCalls()).toBe(2);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const { requests } = stubList([page([CRM])]);
    renderSignedIn(<DisclaimersPage />, { i18n });

    fireEvent.click(await screen.findByRole('button', { name: 'Accept the disclaimer of CRM' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests().filter((request) => request.method !== 'GET')).toEqual([]);
    expect(within(card('CRM')).getByRole('button', { name: 'Accept the disclaimer of CRM' })).toBeInTheDocument();
  });

  it('shows the server’s message when accepting fails, and reads the list again', async () => {
    const newer = { ...CRM, version: 4, text: 'New CRM terms.' };
    const message = 'This disclaimer has changed since it was shown. Read the new version before accepting it.';
    const { listCalls } = stubList([page([CRM]), page([newer])], {
      'PUT /api/v1/profile/disclaimer/crm': jsonResponse({ code: 'errors.disclaimer_outdated', message }, 409),
    });
    renderSignedIn(<DisclaimersPage />, { i18n });

    fireEvent.click(await screen.findByRole('button', { name: 'Accept the disclaimer of CRM' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Accept' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The disclaimer could not be accepted.');
    expect(alert).toHaveTextContent(message);
    await waitFor(() => expect(within(card('CRM')).getByRole('region')).toHaveTextContent('New CRM terms.'));
    expect(listCalls()).toBe(2);
  });

  it('says in the reader’s language when terms exist only in another language, naming it', async () => {
    const frenchOnly = item({ appInfoId: 'wiki', displayAppName: 'Wiki', text: 'Conditions du wiki.', textLanguage: 'fr', languages: ['fr'] });
    stubList([page([frenchOnly, CRM])]);
    const { unmount } = renderSignedIn(<DisclaimersPage />, { i18n });

    await screen.findByRole('heading', { level: 2, name: 'Wiki' });
    expect(within(card('Wiki')).getByRole('note')).toHaveTextContent('These terms exist only in French.');
    expect(within(card('Wiki')).getByRole('region', { name: 'Wiki' })).toHaveAttribute('lang', 'fr');
    expect(within(card('CRM')).queryByRole('note'), 'the CRM terms exist in English').not.toBeInTheDocument();
    unmount();

    const german = await createTestI18n('de');
    const both = { ...CRM, textLanguage: 'en', languages: ['en', 'fr'] };
    stubList([page([frenchOnly, both])]);
    renderSignedIn(<DisclaimersPage />, { i18n: german });
    await screen.findByRole('heading', { level: 2, name: 'Wiki' });
    expect(within(card('Wiki')).getByRole('note')).toHaveTextContent('Diese Bedingungen gibt es nur auf Französisch.');
    expect(within(card('CRM')).getByRole('note')).toHaveTextContent('Diese Bedingungen gibt es nur auf Englisch und Französisch.');
  });

  it('says so when no application asks for a disclaimer, and when the list cannot be loaded', async () => {
    stubList([page([])]);
    const { unmount } = renderSignedIn(<DisclaimersPage />, { i18n });
    expect(await screen.findByText('None of your applications asks you to accept a disclaimer.')).toBeInTheDocument();
    unmount();

    stubApi({ [LIST]: jsonResponse({ code: 'errors.internal', message: 'An unexpected error occurred. Reference: r1' }, 500) });
    renderSignedIn(<DisclaimersPage />, { i18n });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The disclaimers could not be loaded.');
    expect(alert).toHaveTextContent('An unexpected error occurred. Reference: r1');
  });
});
