import Card from 'antd/es/card';
import Skeleton from 'antd/es/skeleton';
import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useCurrentUser } from '../../auth/use-current-user';
import { PageHeader } from '../../shell/PageHeader';
import { mayCall } from '../../auth/console-access';
import { useBackTo } from '../directory/components/crumbs';
import { ErrorAlert } from '../directory/components/ErrorAlert';
import { useFeedback } from '../directory/components/feedback';
import { tenantsCrumb } from './crumbs';
import { TenantGeneralTab } from './TenantGeneralTab';
import { TenantHierarchyCard } from './TenantHierarchyCard';
import { TenantMembers } from './TenantMembers';
import { useTenantQuery } from './tenants-api';
import { useTenantsTranslation } from './use-tenants-translation';
import './tenants.css';

type Tab = 'general' | 'members';

/** /admin/tenants/{id}: the hierarchy tree on the left; General and (Administrators) Members on the right. */
export default function TenantDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTenantsTranslation();
  const user = useCurrentUser();
  const editable = mayCall(user, 'tenants.update');
  const movable = mayCall(user, 'tenants.changeParent');
  const showsMembers = mayCall(user, 'tenants.members');
  const feedback = useFeedback();
  const backTo = useBackTo('/tenants');
  const { data: tenant, error, isLoading } = useTenantQuery(id);
  const [tab, setTab] = useState<Tab>('general');

  if (!tenant) {
    return (
      <>
        <PageHeader title={t('list.title')} breadcrumbs={[tenantsCrumb(t)]} back={backTo} />
        {isLoading ? <Skeleton active /> : <ErrorAlert error={error} />}
      </>
    );
  }

  return (
    <>
      <PageHeader title={tenant.title} breadcrumbs={[tenantsCrumb(t), { title: tenant.title }]} back={backTo} />
      <div className="directory-detail tenants-detail">
        <div className="directory-detail__main">
          <TenantHierarchyCard key={tenant.id} tenant={tenant} draggable={movable} feedback={feedback} />
        </div>
        <div className="directory-detail__side">
          <Card>
            <Tabs
              activeKey={showsMembers ? tab : 'general'}
              onChange={(key) => setTab(key as Tab)}
              items={[
                { key: 'general', label: t('detail.general'), children: <TenantGeneralTab key={tenant.id} tenant={tenant} editable={editable} feedback={feedback} /> },
                ...(showsMembers
                  ? [{ key: 'members', label: t('detail.members'), children: tab === 'members' ? <TenantMembers key={tenant.id} tenant={tenant} feedback={feedback} /> : null }]
                  : []),
              ]}
            />
          </Card>
        </div>
      </div>
      {feedback.holder}
    </>
  );
}
