import AuditOutlined from '@ant-design/icons/AuditOutlined';
import CustomerServiceOutlined from '@ant-design/icons/CustomerServiceOutlined';
import FileProtectOutlined from '@ant-design/icons/FileProtectOutlined';
import HomeOutlined from '@ant-design/icons/HomeOutlined';
import TeamOutlined from '@ant-design/icons/TeamOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import type { ReactNode } from 'react';
import { CLIENTS_ROLES, SERVICE_MANAGER_ROLES } from '../clients/roles';
import type { PortalPhrases } from '../i18n/portal';

export type MenuKey = keyof PortalPhrases['menu'];

export interface MenuEntry {
  key: MenuKey;
  /** Route inside the portal. */
  path: string;
  icon: ReactNode;
  /** Any of these roles shows the entry (the spec's requiredRoles); none: everybody. */
  roles?: readonly string[];
}

// The spec's menu, in its order.
const ENTRIES: readonly MenuEntry[] = [
  { key: 'home', path: '/', icon: <HomeOutlined /> },
  { key: 'profile', path: '/profile', icon: <UserOutlined /> },
  { key: 'rights', path: '/rights', icon: <AuditOutlined /> },
  { key: 'clients', path: '/clients', icon: <TeamOutlined />, roles: CLIENTS_ROLES },
  { key: 'serviceManager', path: '/service-manager', icon: <CustomerServiceOutlined />, roles: SERVICE_MANAGER_ROLES },
  { key: 'disclaimers', path: '/disclaimers', icon: <FileProtectOutlined /> },
];

/** The menu's entries a user holding `roles` may see. */
export function menuEntries(roles: readonly string[]): MenuEntry[] {
  return ENTRIES.filter((entry) => !entry.roles || entry.roles.some((role) => roles.includes(role)));
}

/** The entry a location belongs to, by its first path segment (the misspelt /rigths is Exercise rights). */
export function selectedMenuKey(pathname: string): MenuKey | undefined {
  const segment = pathname.split('/')[1] ?? '';
  const path = segment === 'rigths' ? '/rights' : `/${segment}`;
  return ENTRIES.find((entry) => entry.path === path)?.key;
}
