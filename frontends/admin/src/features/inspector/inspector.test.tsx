import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp, renderPage } from '../../test-utils';
import { bodiesTo, bodyRows, localDateTime, PAGE_TEST_TIMEOUT, sentTo } from '../directory/test-helpers';
import type { TokenInspection } from './inspector-api';
import InspectorPage from './InspectorPage';

const INSPECT = 'POST /api/v1/admin/inspector';
const TOKEN = 'eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJl';

const VALID: TokenInspection = {
  kind: 'accessToken',
  header: { alg: 'RS256', typ: 'at+jwt', kid: 'key-1' },
  claims: { sub: 'u-1', client_id: 'admin-console', scope: 'openid admin' },
  signature: 'valid',
  issuedByThisProvider: true,
  state: 'active',
  issuedAt: '2025-11-24T09:00:00.000Z',
  expiresAt: '2025-11-24T09:15:00.000Z',
  subject: { id: 'u-1', found: true, userName: 'ivy@example.com', displayName: 'Ivy Example', locked: false, draft: false },
  effectiveRoles: [
    {
      applicationId: 'crm',
      applicationName: 'crm',
      applicationDisplayName: 'CRM',
      tenantId: 't-1',
      tenantName: 'ACME',
      roles: [
        { roleId: 'r-1', roleName: 'Reader', hierarchyType: 'Own', origins: [{ via: 'own', groupName: null, tenantName: null }, { via: 'group', groupName: 'Sales team', tenantName: null }] },
        { roleId: 'r-2', roleName: 'Writer', hierarchyType: 'ByHierarchy', origins: [{ via: 'hierarchy', groupName: null, tenantName: 'ACME Group' }] },
      ],
    },
  ],
};

const FORGED: TokenInspection = { ...VALID, signature: 'invalid', state: 'expired', subject: null, effectiveRoles: [] };

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

const paste = (value: string) => fireEvent.change(screen.getByLabelText('Token'), { target: { value } });
const inspectButton = () => screen.getByRole('button', { name: 'Inspect' });

describe('InspectorPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('sends the pasted token in the body and shows what it is, whether it holds, and its subject’s roles now', async () => {
    const { fetchMock } = await renderPage(<InspectorPage />, { route: '/inspector', api: { [INSPECT]: VALID } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Inspector' })).toBeInTheDocument();
    paste(`  ${TOKEN}\n`);
    fireEvent.click(inspectButton());

    const result = await screen.findByRole('region', { name: 'Result' });
    expect(await bodiesTo(fetchMock, INSPECT)).toEqual([{ token: TOKEN }]);
    expect(within(result).getByText('Access token (JWT)')).toBeInTheDocument();
    expect(within(result).getByText('Valid: signed by this provider')).toBeInTheDocument();
    expect(within(result).getByText('This provider')).toBeInTheDocument();
    // The token's validity, and the subject's account.
    expect(within(result).getAllByText('Active')).toHaveLength(2);
    expect(within(result).getByText(localDateTime(VALID.expiresAt!))).toBeInTheDocument();
    expect(within(result).getByText('ivy@example.com')).toBeInTheDocument();
    expect(within(result).getByText('Ivy Example')).toBeInTheDocument();

    const [row] = bodyRows(result);
    expect(row).toHaveTextContent('crm');
    expect(row).toHaveTextContent('ACME');
    // Each role as everywhere else: the application's display name, the role, and how it is held.
    const tags = within(row!).getAllByText(/^CRM: /).map((name) => name.closest('.role-tag'));
    expect(tags.map((tag) => tag?.textContent)).toEqual(['CRM: Reader · own name, through the group Sales team', 'CRM: Writer · inherited from ACME Group']);
    expect(result).toHaveTextContent('"client_id": "admin-console"');
    expect(result).toHaveTextContent('"kid": "key-1"');
  });

  it('names no subject for a token the provider does not vouch for', async () => {
    await renderPage(<InspectorPage />, { route: '/inspector', api: { [INSPECT]: FORGED } });
    paste(TOKEN);
    fireEvent.click(await screen.findByRole('button', { name: 'Inspect' }));

    const result = await screen.findByRole('region', { name: 'Result' });
    expect(within(result).getByText('Invalid: the token was changed or forged')).toBeInTheDocument();
    expect(within(result).getByText('Expired')).toBeInTheDocument();
    expect(within(result).getByText('This provider does not vouch for this token: it names no subject.')).toBeInTheDocument();
    expect(within(result).queryByText('ivy@example.com')).not.toBeInTheDocument();
  });

  it('says "not recognised" of what it does not know, with no dates', async () => {
    const unknown: TokenInspection = { ...FORGED, kind: 'unknown', header: null, claims: null, signature: 'notApplicable', issuedByThisProvider: null, state: 'unknown', issuedAt: null, expiresAt: null };
    await renderPage(<InspectorPage />, { route: '/inspector', api: { [INSPECT]: unknown } });
    paste('gpat_whatever');
    fireEvent.click(await screen.findByRole('button', { name: 'Inspect' }));

    const result = await screen.findByRole('region', { name: 'Result' });
    expect(within(result).getByText('Not recognised')).toBeInTheDocument();
    expect(within(result).getAllByText('(Not set)')).toHaveLength(2);
    expect(within(result).queryByText('Issuer')).not.toBeInTheDocument();
    expect(within(result).queryByText('Claims')).not.toBeInTheDocument();
  });

  it('asks for a token before sending anything', async () => {
    const { fetchMock } = await renderPage(<InspectorPage />, { route: '/inspector', api: { [INSPECT]: VALID } });
    fireEvent.click(await screen.findByRole('button', { name: 'Inspect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Paste a token to inspect');
    expect(screen.getByLabelText('Token')).toHaveAttribute('aria-invalid', 'true');
    expect(sentTo(fetchMock, INSPECT)).toHaveLength(0);
  });

  it('clears the token and the result, and keeps the token out of the address and the browser’s storage', async () => {
    await renderPage(<InspectorPage />, { route: '/inspector', api: { [INSPECT]: VALID } });
    paste(TOKEN);
    fireEvent.click(await screen.findByRole('button', { name: 'Inspect' }));
    await screen.findByRole('region', { name: 'Result' });
    expect(window.location.href).not.toContain(TOKEN.slice(0, 20));
    expect(JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage })).not.toContain(TOKEN.slice(0, 20));

    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByLabelText('Token')).toHaveValue('');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Result' })).not.toBeInTheDocument());
  });

  it('shows the server’s refusal', async () => {
    await renderPage(<InspectorPage />, {
      route: '/inspector',
      api: { [INSPECT]: new Response(JSON.stringify({ code: 'errors.forbidden', message: 'You do not have permission to perform this action' }), { status: 403 }) },
    });
    paste(TOKEN);
    fireEvent.click(await screen.findByRole('button', { name: 'Inspect' }));
    expect(await screen.findByText("You don't have permission to perform this action")).toBeInTheDocument();
  });
});

describe('/admin/inspector', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('opens for an Administrator', async () => {
    await renderApp({ path: '/inspector', roles: ['Administrator'] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Inspector' })).toBeInTheDocument();
  });
});
