import Radio from 'antd/es/radio';
import message from 'antd/es/message';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccessRequests } from './AccessRequests';
import { RequireRoles, useCanAutoApprove } from './access';
import { CLIENTS_ROLES } from './roles';
import { useClientTenantsQuery } from './clients-api';
import { ClientsTable } from './ClientsTable';
import { TenantSelect, type TenantOption } from './TenantSelect';
import './clients.css';

/** How long a success notice stays (spec 9). */
export const SUCCESS_NOTICE_SECONDS = 4;

type View = 'clients' | 'requests';

function ClientsScreen() {
  const { t } = useTranslation('portal');
  const [tenant, setTenant] = useState<TenantOption>();
  const [view, setView] = useState<View>('clients');
  const canAutoApprove = useCanAutoApprove();
  const [toast, toastHolder] = message.useMessage();
  const onSaved = (text: string) => void toast.success(text, SUCCESS_NOTICE_SECONDS);

  return (
    <section className="clients-page" aria-labelledby="clients-title">
      {toastHolder}
      <h1 id="clients-title" className="shell-page-title">
        {t('menu.clients')}
      </h1>
      <div className="clients-page__bar">
        <TenantSelect label={t('clients.tenant')} placeholder={t('clients.selectTenant')} value={tenant} onChange={setTenant} useTenants={useClientTenantsQuery} />
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          value={view}
          onChange={(event) => setView(event.target.value as View)}
          options={[
            { value: 'clients', label: t('clients.clientsView') },
            { value: 'requests', label: t('clients.requestsView') },
          ]}
          aria-label={t('clients.view')}
        />
      </div>
      {view === 'clients' ? <ClientsTable tenant={tenant} canAutoApprove={canAutoApprove} onSaved={onSaved} /> : <AccessRequests tenant={tenant} />}
    </section>
  );
}

/** My Clients (/clients): for consultants and administrators; anybody else is told so. */
export default function ClientsPage() {
  return (
    <RequireRoles roles={CLIENTS_ROLES} screen="clients">
      <ClientsScreen />
    </RequireRoles>
  );
}
