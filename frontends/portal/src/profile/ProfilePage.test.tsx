import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MyProfile } from '../api/portal-api';
import { createTestI18n, jsonResponse, myProfile, renderSignedIn, stubApi } from '../test-utils';
import ProfilePage from './ProfilePage';
import { overview } from './security/security-test-server';

let i18n: I18n;

beforeEach(async () => {
  localStorage.clear();
  i18n = await createTestI18n('en');
});

const PROFILE = 'GET /api/v1/profile';
const UPDATE = 'PUT /api/v1/profile';

/** The page over a fake API; `sent` records the bodies of the saves. */
function renderPage(profile: Partial<MyProfile> = {}, routes: Record<string, unknown> = {}) {
  let stored = myProfile(profile);
  const sent: unknown[] = [];
  const fetchMock = stubApi({
    [PROFILE]: () => jsonResponse(stored),
    [UPDATE]: async (request: Request) => {
      const body = (await request.json()) as Partial<MyProfile>;
      sent.push(body);
      stored = { ...stored, ...body };
      return jsonResponse(stored);
    },
    ...routes,
  });
  const result = renderSignedIn(<ProfilePage />, { i18n, route: '/profile' });
  return { ...result, fetchMock, sent };
}

const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

async function loaded(): Promise<void> {
  await screen.findByRole('textbox', { name: 'First name' });
}

function type(name: string, value: string) {
  fireEvent.change(field(name), { target: { value } });
}

async function pickLanguage(name: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Preferred language' }));
  fireEvent.click(await screen.findByTitle(name));
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('Your Profile', () => {
  it('shows the user name and the e-mail read-only, and the names and language to edit', async () => {
    renderPage({ userName: 'jane.doe', email: 'jane@example.com', language: 'pt-BR' });
    await loaded();

    expect(screen.getByRole('heading', { level: 1, name: 'Your Profile' })).toBeInTheDocument();
    expect(field('User name')).toHaveValue('jane.doe');
    expect(field('User name')).toHaveAttribute('readonly');
    expect(field('E-mail')).toHaveValue('jane@example.com');
    expect(field('E-mail')).toHaveAttribute('readonly');
    expect(field('First name')).toHaveValue('Jane');
    expect(field('Last name')).toHaveValue('Doe');
    expect(screen.getByText('Português (Brasil)')).toHaveAttribute('lang', 'pt-BR');
  });

  it('offers the seven languages, each named in itself', async () => {
    renderPage();
    await loaded();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Preferred language' }));

    await screen.findByTitle('Deutsch');
    const options = [...document.querySelectorAll('.ant-select-item-option')].map((option) => {
      const name = option.querySelector('[lang]');
      return [name?.textContent, name?.getAttribute('lang')];
    });
    expect(options).toEqual([
      ['English', 'en'],
      ['Français', 'fr'],
      ['Español', 'es'],
      ['Português (Portugal)', 'pt-PT'],
      ['Português (Brasil)', 'pt-BR'],
      ['Italiano', 'it'],
      ['Deutsch', 'de'],
    ]);
  });

  it('has the slots of the picture and of "My data"', async () => {
    renderPage();
    await loaded();

    expect(screen.getByRole('img', { name: 'Your picture' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /My data/ })).toBeInTheDocument();
  });

  it('requires the first name, the last name and the language, with the spec messages, and sends nothing', async () => {
    const { sent } = renderPage({ language: '' });
    await loaded();

    type('First name', ' ');
    type('Last name', '');
    save();

    expect(await screen.findByText('Please input your first name!')).toBeInTheDocument();
    expect(screen.getByText('Please input your last name!')).toBeInTheDocument();
    expect(screen.getByText('Please select your preferred language!')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('says at once that a stored language the portal does not offer is invalid, and saves once one is chosen', async () => {
    const { sent } = renderPage({ language: 'xx' });
    await loaded();

    expect(await screen.findByText('Invalid preferred language')).toBeInTheDocument();
    save();
    await waitFor(() => expect(screen.getAllByText('Invalid preferred language')).toHaveLength(1));
    expect(sent).toEqual([]);

    await pickLanguage('English');
    await waitFor(() => expect(screen.queryByText('Invalid preferred language')).toBeNull());
    save();
    await waitFor(() => expect(sent).toEqual([{ firstName: 'Jane', lastName: 'Doe', language: 'en' }]));
  });

  it('shows the server’s refusal of a language under the field', async () => {
    renderPage({}, {
      [UPDATE]: () =>
        jsonResponse(
          { code: 'errors.validation', message: 'The request is not valid', errors: [{ field: 'language', code: 'users.language_invalid', message: 'Invalid preferred language' }] },
          400,
        ),
    });
    await loaded();
    save();
    expect(await screen.findByText('Invalid preferred language')).toBeInTheDocument();
  });

  it('refuses names longer than 100 characters', async () => {
    const { sent } = renderPage();
    await loaded();

    type('Last name', 'D'.repeat(101));
    save();

    expect(await screen.findByText('At most 100 characters')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('puts back the stored values on Cancel', async () => {
    const { sent } = renderPage();
    await loaded();
    type('First name', 'Janet');
    type('Last name', '');
    await pickLanguage('Italiano');
    save();
    expect(await screen.findByText('Please input your last name!')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(field('First name')).toHaveValue('Jane');
    expect(field('Last name')).toHaveValue('Doe');
    expect(screen.getByText('English')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Please input your last name!')).not.toBeInTheDocument());
    expect(sent).toEqual([]);
  });

  it('saves the names and the language, says so in the new language, and speaks it at once', async () => {
    const { sent } = renderPage();
    await loaded();
    type('First name', 'Johanna');
    await pickLanguage('Deutsch');

    save();

    expect(await screen.findByText('Die Änderungen wurden gespeichert')).toBeInTheDocument();
    expect(screen.queryByText('Changes have been saved')).not.toBeInTheDocument();
    expect(sent).toEqual([{ firstName: 'Johanna', lastName: 'Doe', language: 'de' }]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ihr Profil' })).toBeInTheDocument();
    expect(i18n.language).toBe('de');
    expect(JSON.parse(localStorage.getItem('gatehouse.preferences')!)).toMatchObject({ currentLanguage: 'de' });
    // Cancel now goes back to what was saved.
    type('Vorname', 'Other');
    fireEvent.click(screen.getByRole('button', { name: 'Abbrechen' }));
    expect(field('Vorname')).toHaveValue('Johanna');
  });

  it('keeps the language when only the names change', async () => {
    const { sent } = renderPage();
    await loaded();
    type('Last name', 'Smith');

    save();

    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    expect(sent).toEqual([{ firstName: 'Jane', lastName: 'Smith', language: 'en' }]);
    expect(i18n.language).toBe('en');
  });

  it('shows the server’s refusal of a field under that field', async () => {
    renderPage({}, {
      [UPDATE]: jsonResponse(
        {
          code: 'errors.validation',
          message: 'The request is not valid',
          errors: [{ field: 'firstName', code: 'validation.too_long', message: 'firstName must have at most 100 characters' }],
        },
        400,
      ),
    });
    await loaded();

    save();

    expect(await screen.findByText('firstName must have at most 100 characters')).toBeInTheDocument();
    expect(field('First name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Changes have been saved')).not.toBeInTheDocument();
  });

  it('says when the profile cannot be saved', async () => {
    renderPage({}, { [UPDATE]: jsonResponse({ code: 'errors.internal', message: 'An unexpected error occurred. Reference: r-1', errors: [] }, 500) });
    await loaded();

    save();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your profile could not be saved.');
    expect(alert).toHaveTextContent('An unexpected error occurred. Reference: r-1');
  });

  it('asks before mailing a password reset link from "Change password"', async () => {
    renderPage();
    await loaded();

    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));

    const dialog = await screen.findByRole('dialog', { name: 'Change your password?' });
    expect(dialog).toHaveTextContent('A link to set a new password will be e-mailed to jane@example.com.');
  });

  it('says nothing of companies to a user without any', async () => {
    renderPage({ companyCount: 0 });
    await loaded();
    expect(screen.queryByText('Current company')).not.toBeInTheDocument();
  });

  it('shows the current company, and offers to change it only among several', async () => {
    const first = renderPage({ companyCount: 1, currentCompany: { id: 'a', title: 'Acme' } });
    await loaded();
    expect(screen.getByText('Acme')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change company' })).not.toBeInTheDocument();
    first.unmount();

    renderPage({ companyCount: 2, currentCompany: null }, { 'GET /api/v1/profile/tenants': { items: [], count: 0 } });
    await loaded();
    expect(screen.getByText('None chosen')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Change company' }));
    expect(await screen.findByRole('dialog', { name: 'Change company' })).toBeInTheDocument();
  });

  it('says when the profile cannot be loaded, and tries again on request', async () => {
    let fail = true;
    renderPage({}, { [PROFILE]: () => (fail ? jsonResponse({ code: 'errors.internal', message: 'Down' }, 500) : jsonResponse(myProfile())) });

    expect(await screen.findByText('Your profile could not be loaded.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('textbox', { name: 'First name' })).toHaveValue('Jane');
  });
});

describe('Your Profile: "My security"', () => {
  it('is the profile’s second part, at /profile/security, and the first part is one link away', async () => {
    stubApi({
      [PROFILE]: () => jsonResponse(myProfile()),
      'GET /api/v1/profile/security': overview(),
      'GET /api/v1/profile/sessions': { sessions: [] },
    });
    renderSignedIn(<ProfilePage />, { i18n, route: '/profile/security' });

    const parts = screen.getByRole('navigation', { name: 'Profile sections' });
    expect(within(parts).getByRole('link', { name: 'My security' })).toHaveAttribute('aria-current', 'page');
    expect(within(parts).getByRole('link', { name: 'Profile' })).not.toHaveAttribute('aria-current');
    const headings = await screen.findAllByText(/^(Passkeys|Authenticator app|Recovery codes|Sessions and devices)$/, { selector: 'h2' });
    expect(headings.map((heading) => heading.textContent)).toEqual(['Passkeys', 'Authenticator app', 'Recovery codes', 'Sessions and devices']);
    expect(screen.queryByRole('textbox', { name: 'First name' })).not.toBeInTheDocument();

    fireEvent.click(within(parts).getByRole('link', { name: 'Profile' }));

    expect(await screen.findByRole('textbox', { name: 'First name' })).toHaveValue('Jane');
    expect(within(parts).getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByText('Passkeys', { selector: 'h2' })).not.toBeInTheDocument();
  });
});
