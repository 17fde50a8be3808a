import { EditorView } from '@uiw/react-codemirror';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import ConfigProvider from 'antd/es/config-provider';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderApp, renderPage } from '../../test-utils';
import { bodiesTo, bodyRows, list, localDateTime, PAGE_TEST_TIMEOUT, queriesTo, sentTo } from '../directory/test-helpers';
import type { SecurityConfig } from './security-config-api';
import SecurityConfigPage from './SecurityConfigPage';

const LIST = 'GET /api/v1/admin/securityConfig';

const LOCKOUT: SecurityConfig = {
  id: 'Lockout',
  title: 'Lockout',
  description: 'Wrong passwords or codes in a row that lock an account',
  body: '{"maxFailedAttempts":5,"lockoutMinutes":5,"permanentAfterLockouts":3}',
  yaml: 'maxFailedAttempts: 5\nlockoutMinutes: 5\npermanentAfterLockouts: 3\n',
  modifiedByDisplayName: null,
  modifiedOn: null,
};
const POLICY: SecurityConfig = {
  id: 'PasswordPolicy',
  title: 'PasswordPolicy',
  description: 'What a new password must contain',
  body: '{"minLength":16}',
  yaml: 'minLength: 16\n',
  modifiedByDisplayName: 'Gina God',
  modifiedOn: '2025-11-24T09:30:00.000Z',
};

beforeEach(() => sessionStorage.clear());

// jsdom lays nothing out: the editor measures text ranges, which answer no boxes here.
beforeAll(() => {
  const noBoxes = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getClientRects ??= noBoxes;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});

/** The editor of the open dialog, and a way to type a whole new document into it. */
function editor(dialog: HTMLElement) {
  const content = dialog.querySelector<HTMLElement>('.cm-content')!;
  const view = EditorView.findFromDOM(content)!;
  return {
    content,
    view,
    /** As typed: the page has rendered the new text before anything else happens. */
    replace: (text: string) => act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } })),
  };
}

async function openLockout(api: Record<string, unknown> = {}) {
  const rendered = await renderPage(
    <ConfigProvider csp={{ nonce: 'page-nonce' }}>
      <SecurityConfigPage />
    </ConfigProvider>,
    { route: '/securityConfig', roles: ['God'], api: { [LIST]: list([LOCKOUT, POLICY], 2), ...api } },
  );
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Lockout' }));
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(dialog.querySelector('.cm-content')).not.toBeNull());
  return { ...rendered, dialog };
}

describe('SecurityConfigPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('lists the configurations by title with what each governs and who changed it last', async () => {
    const { fetchMock } = await renderPage(<SecurityConfigPage />, { route: '/securityConfig', roles: ['God'], api: { [LIST]: list([LOCKOUT, POLICY], 2) } });

    expect(await screen.findByRole('heading', { level: 1, name: 'Security Configuration' })).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    const [lockout, policy] = bodyRows();
    expect(lockout).toHaveTextContent('Lockout');
    expect(lockout).toHaveTextContent('Wrong passwords or codes in a row that lock an account, for how many minutes');
    expect(lockout).toHaveTextContent('Defaults (never changed)');
    expect(policy).toHaveTextContent('Gina God');
    expect(policy).toHaveTextContent(localDateTime(POLICY.modifiedOn!));
    expect(queriesTo(fetchMock, LIST)[0]).toEqual({ skip: '0', top: '10', orderBy: 'title asc' });
  });

  it('edits a configuration as YAML in an 800-wide dialog, 300 high, and saves it', async () => {
    const saved = { ...LOCKOUT, yaml: 'maxFailedAttempts: 3\n', modifiedByDisplayName: 'Ada Admin', modifiedOn: '2025-11-25T10:00:00.000Z' };
    const { dialog, fetchMock } = await openLockout({ 'PUT /api/v1/admin/securityConfig/Lockout': saved });

    expect(within(dialog).getByText('Edit Config')).toBeInTheDocument();
    expect(dialog.closest<HTMLElement>('.ant-modal')!.style.width).toBe('800px');
    // The editor's height is a rule of its theme, which it inserts with its other styles.
    const rules = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText));
    expect(rules.some((rule) => /height: 300px/.test(rule))).toBe(true);
    const { view, replace, content } = editor(dialog);
    expect(view.state.doc.toString()).toBe(LOCKOUT.yaml);
    expect(content).toHaveAccessibleName('Configuration (YAML)');

    await replace('maxFailedAttempts: 3\n');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sentTo(fetchMock, 'PUT /api/v1/admin/securityConfig/Lockout')).toHaveLength(1));
    expect(await bodiesTo(fetchMock, 'PUT /api/v1/admin/securityConfig/Lockout')).toEqual([{ body: 'maxFailedAttempts: 3\n' }]);
    expect(await screen.findByText('Changes have been saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(sentTo(fetchMock, LIST)).toHaveLength(2));
  });

  it('refuses text that is not YAML with "Invalid yaml format", sending nothing', async () => {
    const { dialog, fetchMock } = await openLockout();
    await editor(dialog).replace('maxFailedAttempts: [3\nlockoutMinutes: : 5');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText('Invalid yaml format')).toBeInTheDocument();
    expect(sentTo(fetchMock, 'PUT /api/v1/admin/securityConfig/Lockout')).toHaveLength(0);
    expect(editor(dialog).content).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows each key the server refused, and keeps the dialog open', async () => {
    const refusal = jsonResponse(
      {
        code: 'errors.validation',
        message: 'The request is not valid',
        errors: [{ field: 'maxFailedAttempt', code: 'securityConfig.unknown_key', message: 'Unknown key maxFailedAttempt: this configuration accepts maxFailedAttempts, lockoutMinutes, permanentAfterLockouts' }],
      },
      400,
    );
    const { dialog } = await openLockout({ 'PUT /api/v1/admin/securityConfig/Lockout': refusal });
    await editor(dialog).replace('maxFailedAttempt: 3');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText(/^Unknown key maxFailedAttempt: this configuration accepts/)).toBeInTheDocument();
    expect(within(dialog).getByText('The request is not valid')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('gives the editor’s styles the page’s nonce, as the Content Security Policy requires', async () => {
    await openLockout();
    const editorStyles = [...document.querySelectorAll('style')].filter((style) => style.textContent?.includes('.cm-'));
    expect(editorStyles.length).toBeGreaterThan(0);
    for (const style of editorStyles) expect(style.nonce || style.getAttribute('nonce')).toBe('page-nonce');
  });
});

describe('/admin/securityConfig', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('is God’s: an Administrator is told the page is not open to their roles, and the menu does not offer it', async () => {
    await renderApp({ path: '/securityConfig', roles: ['Administrator'] });
    expect(await screen.findByText('Not open to your roles')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Security Configuration/ })).not.toBeInTheDocument();
  });

  it('opens for God from the menu', async () => {
    await renderApp({ path: '/securityConfig', roles: ['God'], api: { [LIST]: list([LOCKOUT], 1) } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Security Configuration' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Security Configuration' }).closest('li')).toHaveClass('ant-menu-item-selected');
  });
});
