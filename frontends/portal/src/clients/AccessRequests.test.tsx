import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeAuth, createTestI18n, jsonResponse, makeUser, myProfile, renderSignedIn, stubApi } from '../test-utils';
import { AccessRequests, canDecideAll } from './AccessRequests';
import { useCanAutoApprove } from './access';
import type { OperationRequest } from './clients-api';

const TENANT = { id: '10000000-0000-0000-0000-000000000001', title: 'Acme' };
const LIST = 'GET /api/v1/admin/operationRequests';

let i18n: I18n;

beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  vi.useRealTimers();
});

function request(overrides: Partial<OperationRequest> & Pick<OperationRequest, 'id' | 'displayName'>): OperationRequest {
  return {
    type: 'Permission',
    status: 'WaitingForApprover',
    email: `${overrides.id}@acme.com`,
    identityType: 'User',
    identityId: `user-${overrides.id}`,
    tenantId: TENANT.id,
    tenantName: TENANT.title,
    modificationDate: '2025-01-31T10:00:00.000Z',
    createdByDisplayName: 'Bob Ray',
    isMine: false,
    canApprove: true,
    approvers: ['Carol Approver'],
    roles: [{ roleId: 'r1', roleName: 'Reader', applicationId: 'crm', applicationName: 'CRM' }],
    isInheritable: true,
    version: 1,
    reason: null,
    ...overrides,
  };
}

const ANN = request({ id: 'ann', displayName: 'Ann Lee' });
const BEN = request({ id: 'ben', displayName: 'Ben Ode', version: 3 });
const MINE = request({ id: 'mine', displayName: 'My Own', isMine: true, canApprove: false });

function stub(items: OperationRequest[], extra: Record<string, unknown> = {}) {
  let listCalls = 0;
  const fetchMock = stubApi({
    [LIST]: () => {
      listCalls += 1;
      return jsonResponse({ items, count: items.length });
    },
    ...extra,
  });
  const sent = (method: string) => fetchMock.mock.calls.map(([input]) => input as Request).filter((r) => r.method === method);
  return { sent, listCalls: () => listCalls };
}

/** The dialog titled `title` (antd's test ids make the accessible names unreliable in jsdom). */
async function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.getAllByRole('dialog').find((dialog) => within(dialog).queryByText(title));
    expect(found).toBeDefined();
    return found!;
  });
}

const row = (name: string) => screen.getByText(name).closest('tr')!;
const select = (name: string) => fireEvent.click(within(row(name)).getByRole('checkbox'));

describe('canDecideAll', () => {
  it('holds only for a non-empty selection of waiting requests the caller may approve', () => {
    expect(canDecideAll([])).toBe(false);
    expect(canDecideAll([ANN, BEN])).toBe(true);
    expect(canDecideAll([ANN, MINE])).toBe(false);
    expect(canDecideAll([ANN, { ...BEN, status: 'Applied' }])).toBe(false);
  });
});

describe('AccessRequests', () => {
  it('lists the tenant’s waiting requests, with approve and reject where canApprove and cancel only where isMine', async () => {
    const { sent } = stub([ANN, MINE]);
    renderSignedIn(<AccessRequests tenant={TENANT} />, { i18n });
    await screen.findByText('Ann Lee');

    const query = new URL(sent('GET').find((r) => r.url.includes('/operationRequests'))!.url).searchParams;
    expect(Object.fromEntries(query)).toEqual({ tenantId: TENANT.id, status: 'WaitingForApprover', skip: '0', take: '10' });
    expect(within(row('Ann Lee')).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(within(row('Ann Lee')).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
    expect(within(row('Ann Lee')).queryByRole('button', { name: 'Cancel request' })).not.toBeInTheDocument();
    expect(within(row('My Own')).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(within(row('My Own')).getByRole('button', { name: 'Cancel request' })).toBeInTheDocument();
  });

  it('shows the roles each request asks for: the application’s display name, then the role', async () => {
    const asking = request({
      id: 'eve',
      displayName: 'Eve Ask',
      roles: [
        { roleId: 'r1', roleName: 'Reader', applicationId: 'crm', applicationName: 'Customer Relations' },
        { roleId: 'r2', roleName: 'Clerk', applicationId: 'erp', applicationName: 'Resource Planning' },
      ],
    });
    stub([asking]);
    renderSignedIn(<AccessRequests tenant={TENANT} />, { i18n });
    await screen.findByText('Eve Ask');

    const roles = [...row('Eve Ask').querySelectorAll('.role-tag')].map((tag) => tag.textContent);
    expect(roles).toEqual(['Customer Relations: Reader', 'Resource Planning: Clerk']);
  });

  it('shows the bulk buttons only while every selected row is waiting and approvable', async () => {
    stub([ANN, BEN, MINE]);
    renderSignedIn(<AccessRequests tenant={TENANT} />, { i18n });
    await screen.findByText('Ann Lee');
    expect(screen.queryByRole('button', { name: 'Approve selected' })).not.toBeInTheDocument();

    select('Ann Lee');
    select('Ben Ode');
    expect(screen.getByRole('button', { name: 'Approve selected' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reject selected' })).toBeInTheDocument();

    select('My Own');
    expect(screen.queryByRole('button', { name: 'Approve selected' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reject selected' })).not.toBeInTheDocument();
  });

  it('approves only after the confirmation warning about external users, then reads the list again', async () => {
    const { sent, listCalls } = stub([ANN], { 'POST /api/v1/admin/operationRequests/approve/ann': { ...ANN, status: 'Applied' } });
    renderSignedIn(<AccessRequests tenant={TENANT} />, { i18n });
    fireEvent.click(within((await screen.findByText('Ann Lee')).closest('tr')!).getByRole('button', { name: 'Approve' }));

    const dialog = await dialogTitled('Approve access?');
    expect(dialog).toHaveTextContent('Make sure that external users are meant to access these applications.');
    expect(sent('POST')).toHaveLength(0);
    const before = listCalls();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));

    await waitFor(() => expect(sent('POST').map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/admin/operationRequests/approve/ann']));
    // The approval names the version the approver saw: a request changed since is not applied.
    expect(await sent('POST')[0]!.json()).toEqual({ version: 1 });
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const { sent } = stub([ANN]);
    renderSignedIn(<AccessRequests tenant={TENANT} />, { i18n });
    fireEvent.click(within((await screen.findByText('Ann Lee')).closest('tr')!).getByRole('button', { name: 'Approve' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent('POST')).toHaveLength(0);
  });

  it('approves the selection in bulk after the confirmation, and shows each refusal', async () => {
    const { sent } = stub([ANN, BEN], {
      'POST /api/v1/admin/operationRequests/approveInBulk': {
        items: [{ id: 'ann', status: 'Applied' }, { id: 'ben', error: { code: 'errors.conflict', message: 'This request was already decided.' } }],
      },
    });
    renderSignedIn(<AccessRequests tenant={TENANT} />, { i18n });
    await screen.findByText('Ann Lee');
    select('Ann Lee');
    select('Ben Ode');
    fireEvent.click(screen.getByRole('button', { name: 'Approve selected' }));
    fireEvent.click(within(await dialogTitled('Approve access?')).getByRole('button', { name: 'Approve' }));

    expect(await screen.findByText('This request was already decided.')).toBeInTheDocument();
    expect(await sent('POST')[0]!.json()).toEqual({ ids: ['ann', 'ben'], versions: { ann: 1, ben: 3 } });
  });

  it('cancels its own request, and shows a failure for five seconds', async () => {
    // The clock moves on by itself as well: renders and Testing Library's waits work as usual.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { sent } = stub([MINE], {
      'POST /api/v1/admin/operationRequests/cancel/mine': jsonResponse({ code: 'errors.conflict', message: 'The request is no longer waiting.' }, 409),
    });
    renderSignedIn(<AccessRequests tenant={TENANT} />, { i18n });
    fireEvent.click(within((await screen.findByText('My Own')).closest('tr')!).getByRole('button', { name: 'Cancel request' }));

    expect(await screen.findByText('The request is no longer waiting.')).toBeInTheDocument();
    const shownAt = Date.now();
    expect(sent('POST').map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/admin/operationRequests/cancel/mine']);
    await act(() => vi.advanceTimersByTimeAsync(Math.max(0, shownAt + 4500 - Date.now())));
    expect(screen.getByText('The request is no longer waiting.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(600));
    await waitFor(() => expect(screen.queryByText('The request is no longer waiting.')).not.toBeInTheDocument());
  });

  it('opens the request’s history in a side drawer', async () => {
    stub([ANN], {
      'GET /api/v1/admin/operationRequests/history/ann': {
        items: [{ id: 'h1', email: 'bob@acme.com', date: '2025-01-31T10:00:00.000Z', requestType: 'Permission', status: 'WaitingForApprover' }],
      },
    });
    renderSignedIn(<AccessRequests tenant={TENANT} />, { i18n });
    fireEvent.click(await screen.findByRole('button', { name: 'History of the request for Ann Lee' }));
    const drawer = await dialogTitled('History: Ann Lee');
    expect(await within(drawer).findByText('bob@acme.com')).toBeInTheDocument();
    expect(within(drawer).getByText('Waiting for approver')).toBeInTheDocument();
  });
});

function Probe() {
  return <p>{useCanAutoApprove() ? 'may auto-approve' : 'may not auto-approve'}</p>;
}

describe('useCanAutoApprove (the Approve switch)', () => {
  it.each([
    [['Administrator'], undefined, true],
    [['IdentityConsultant'], 'Team Leader', true],
    [['IdentityConsultant'], '  DIRECTOR ', true],
    [['IdentityConsultant'], 'Developer', false],
    [['IdentityConsultant'], undefined, false],
  ])('roles %j, internal category %j: %s', async (roles, category, expected) => {
    stubApi({ 'GET /api/v1/profile': myProfile({ roles }) });
    renderSignedIn(<Probe />, { i18n, auth: new FakeAuth(makeUser({ internal_category: category })) });
    await waitFor(() => expect(screen.getByText(expected ? 'may auto-approve' : 'may not auto-approve')).toBeInTheDocument());
    if (expected) return;
    // Settled: the profile has come and did not change the answer.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('may not auto-approve')).toBeInTheDocument();
  });
});

