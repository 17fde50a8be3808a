import SafetyCertificateOutlined from '@ant-design/icons/SafetyCertificateOutlined';
import Button from 'antd/es/button';
import Tabs from 'antd/es/tabs';
import { useNavigate, useSearchParams } from 'react-router';
import { breadcrumbState, PageHeader } from '../../shell/PageHeader';
import { permissionsCrumb, PERMISSION_TABS, USER_PERMISSIONS_PATH, type PermissionTab } from './crumbs';
import { IdentityGroupsTab } from './IdentityGroupsTab';
import { IdentityUsersTab } from './IdentityUsersTab';
import { RequirePermissionsRole } from './RequirePermissionsRole';
import { usePermissionsTranslation } from './use-permissions-translation';
import './permissions.css';

/** Where the active tab is remembered for the browser tab (the lists' pattern of keys). */
export const PERMISSIONS_TAB_KEY = 'IDENTITY-PERMISSIONS-TAB';

function isTab(value: unknown): value is PermissionTab {
  return (PERMISSION_TABS as readonly unknown[]).includes(value);
}

function storedTab(): PermissionTab | undefined {
  try {
    const stored = sessionStorage.getItem(PERMISSIONS_TAB_KEY);
    return isTab(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

function storeTab(tab: PermissionTab): void {
  try {
    sessionStorage.setItem(PERMISSIONS_TAB_KEY, tab);
  } catch {
    // A blocked storage only costs the remembered tab.
  }
}

/**
 * The active tab: the address's `?tab=` (a link, the way back from a group), else the one last
 * chosen in this browser tab, else Users. Choosing one writes both.
 */
function useActiveTab(): [PermissionTab, (tab: PermissionTab) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const fromUrl = searchParams.get('tab');
  const active = isTab(fromUrl) ? fromUrl : (storedTab() ?? 'users');
  const choose = (tab: PermissionTab) => {
    storeTab(tab);
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', tab);
        return next;
      },
      { replace: true },
    );
  };
  return [active, choose];
}

/** /admin/permissions: who holds roles in which tenants, users and groups, with the tenant-role imports. */
export default function PermissionsPage() {
  return (
    <RequirePermissionsRole>
      <PermissionsTabs />
    </RequirePermissionsRole>
  );
}

function PermissionsTabs() {
  const { t } = usePermissionsTranslation();
  const navigate = useNavigate();
  const [tab, setTab] = useActiveTab();

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
