import type { RoleOrigin } from '@gatehouse/contracts';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n/create-i18n';
import type { Language } from '../i18n/languages';
import { RoleTag, type RoleTagProps } from './RoleTag';

const OWN: RoleOrigin = { via: 'own', groupName: null, tenantName: null };
const SALES: RoleOrigin = { via: 'group', groupName: 'Sales', tenantName: null };
const FROM_ACME: RoleOrigin = { via: 'hierarchy', groupName: null, tenantName: 'Acme' };
const FROM_ACME_SALES: RoleOrigin = { via: 'hierarchy', groupName: 'Sales', tenantName: 'Acme' };

function renderTag(props: RoleTagProps, language: Language = 'en') {
  const { container } = render(
    <I18nextProvider i18n={createI18n({ language })}>
      <RoleTag {...props} />
    </I18nextProvider>,
  );
  return container.querySelector('.role-tag')!;
}

describe('RoleTag', () => {
  it("shows the application's display name, then the role", () => {
    const tag = renderTag({ application: 'Customer Relations', role: 'Reader' });
    expect(tag.textContent).toBe('Customer Relations: Reader');
    expect(screen.getByText('Customer Relations: Reader')).toBeInTheDocument();
  });

  it("says a role held in the user's own name is so", () => {
    const tag = renderTag({ application: 'CRM', role: 'Reader', origins: [OWN] });
    expect(tag).toHaveTextContent('CRM: Reader · own name');
    expect(tag).toHaveAttribute('data-origins', 'own');
    expect(tag).toHaveClass('ant-tag-blue');
  });

  it('names the group a role is held through', () => {
    const tag = renderTag({ application: 'CRM', role: 'Reader', origins: [SALES] });
    expect(tag).toHaveTextContent('CRM: Reader · through the group Sales');
    expect(tag).toHaveAttribute('data-origins', 'group');
  });

  it('names the parent tenant a role is inherited from, and the group when a group holds it there', () => {
    expect(renderTag({ application: 'CRM', role: 'Reader', origins: [FROM_ACME] })).toHaveTextContent('CRM: Reader · inherited from Acme');
    expect(renderTag({ application: 'CRM', role: 'Writer', origins: [FROM_ACME_SALES] })).toHaveTextContent('CRM: Writer · inherited from Acme through the group Sales');
  });

  it('lists every way a role is held, in the order given', () => {
    const tag = renderTag({ application: 'CRM', role: 'Reader', origins: [OWN, SALES, FROM_ACME] });
    expect(tag).toHaveTextContent('CRM: Reader · own name, through the group Sales, inherited from Acme');
    expect(tag).toHaveAttribute('data-origins', 'own group hierarchy');
  });

  it('names the tenant after the role where the page lists several', () => {
    expect(renderTag({ application: 'CRM', role: 'Reader', tenant: 'Acme', origins: [OWN] })).toHaveTextContent('CRM: Reader (Acme) · own name');
  });

  it('speaks the page’s language', () => {
    expect(renderTag({ application: 'CRM', role: 'Lecteur', origins: [SALES, FROM_ACME] }, 'fr')).toHaveTextContent('CRM: Lecteur · via le groupe Sales, hérité de Acme');
    expect(renderTag({ application: 'CRM', role: 'Leser', origins: [OWN] }, 'de')).toHaveTextContent('CRM: Leser · eigener Name');
    expect(renderTag({ application: 'CRM', role: 'Lector', origins: [FROM_ACME] }, 'es')).toHaveTextContent('CRM: Lector · heredado de Acme');
  });

  it('can be closed when the caller may take the role away', () => {
    const onClose = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    renderTag({ application: 'CRM', role: 'Reader', origins: [OWN], closable: { 'aria-label': 'Remove Reader' }, onClose });
    fireEvent.click(screen.getByLabelText('Remove Reader'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
