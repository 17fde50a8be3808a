import SafetyCertificateOutlined from '@ant-design/icons/SafetyCertificateOutlined';
import Button from 'antd/es/button';
import Tabs from 'antd/es/tabs';
import { useNavigate } from 'react-router';
import { breadcrumbState, PageHeader } from '../../shell/PageHeader';
import { useRememberedTab } from '../../shell/use-remembered-tab';
import { permissionsCrumb, PERMISSION_TABS, USER_PERMISSIONS_PATH, type PermissionTab } from './crumbs';
import { IdentityGroupsTab } from './IdentityGroupsTab';
import { IdentityUsersTab } from './IdentityUsersTab';
import { usePermissionsTranslation } from './use-permissions-translation';
import './permissions.css';

/** Where the active tab is remembered for the browser tab (the lists' pattern of keys). */
export const PERMISSIONS_TAB_KEY = 'IDENTITY-PERMISSIONS-TAB';

/** /admin/permissions: who holds roles in which tenants, users and groups, with the tenant-role imports. */
export default function PermissionsPage() {
  return <PermissionsTabs />;
}

function PermissionsTabs() {
  const { t } = usePermissionsTranslation();
  const navigate = useNavigate();
  const [tab, setTab] = useRememberedTab(PERMISSION_TABS, PERMISSIONS_TAB_KEY, 'users');

  return (
    <>
      <PageHeader
        title={t('page.title')}
        breadcrumbs={[{ title: t('page.title') }]}
        extra={
          <Button
            icon={<SafetyCertificateOutlined />}
            onClick={() => void navigate(USER_PERMISSIONS_PATH, { state: breadcrumbState([permissionsCrumb(t, tab), { title: t('check.title') }]) })}
          >
            {t('page.userPermissions')}
          </Button>
        }
      />
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as PermissionTab)}
        destroyOnHidden
        items={[
          { key: 'users', label: t('page.users'), children: <IdentityUsersTab /> },
          { key: 'groups', label: t('page.groups'), children: <IdentityGroupsTab /> },
        ]}
      />
    </>
  );
}
