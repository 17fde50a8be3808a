import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Company } from '../../api/portal-api';
import { leavePortal } from '../../shell/navigation';
import { createTestI18n, jsonResponse, myProfile, renderSignedIn, stubApi } from '../../test-utils';
import CompanySelectPage from './CompanySelectPage';

vi.mock('../../shell/navigation', () => ({ leavePortal: vi.fn() }));

let i18n: I18n;

const ACME: Company = { id: 'a0000000-0000-4000-8000-000000000001', title: 'Acme' };
const BETA: Company = { id: 'b0000000-0000-4000-8000-000000000002', title: 'Beta Corp' };

beforeEach(async () => {
  i18n = await createTestI18n('en');
  localStorage.clear();
  vi.mocked(leavePortal).mockReset();
});

function Where() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname}</p>;
}

/** The page at `route` over a fake API; `chosen` records the companies picked. */
function renderPage(route: string, companyCount = 2) {
  const chosen: unknown[] = [];
  stubApi({
    'GET /api/v1/profile': () => jsonResponse(myProfile({ companyCount, currentCompany: companyCount ? ACME : null })),
    'GET /api/v1/profile/tenants': () => jsonResponse({ items: [ACME, BETA], count: 2 }),
    'PUT /api/v1/profile/currentCompany': async (request: Request) => {
      const body = (await request.json()) as { tenantId: string };
      chosen.push(body);
      return jsonResponse(body.tenantId === BETA.id ? BETA : ACME);
    },
  });
  renderSignedIn(
    <Routes>
      <Route path="/home/companies/select" element={<CompanySelectPage />} />
      <Route path="/" element={<Where />} />
    </Routes>,
    { i18n, route },
  );
  return { chosen };
}

describe('/home/companies/select', () => {
  it('picks the company, then goes back to the application that linked here', async () => {
    const { chosen } = renderPage('/home/companies/select?returnUrl=%2Fextranet%2Forders%3Fpage%3D2');

    expect(await screen.findByRole('heading', { level: 1, name: 'Change company' })).toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Change company' });
    fireEvent.click(await within(dialog).findByRole('radio', { name: 'Beta Corp' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Select' }));

    await waitFor(() => expect(leavePortal).toHaveBeenCalledWith('/extranet/orders?page=2'));
    expect(chosen).toEqual([{ tenantId: BETA.id }]);
  });

  it('goes to the portal’s home when cancelled, and never to another site', async () => {
    renderPage('/home/companies/select?returnUrl=https%3A%2F%2Fevil.example%2F');

    const dialog = await screen.findByRole('dialog', { name: 'Change company' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect(await screen.findByTestId('location')).toHaveTextContent('/');
    expect(leavePortal).not.toHaveBeenCalled();
  });

  it('says so to a user who belongs to no company, with the way back', async () => {
    renderPage('/home/companies/select?returnUrl=%2Fextranet%2F', 0);

    expect(await screen.findByText('You belong to no company: there is none to choose.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(leavePortal).toHaveBeenCalledWith('/extranet/');
  });
});
