import AuditOutlined from '@ant-design/icons/AuditOutlined';
import CustomerServiceOutlined from '@ant-design/icons/CustomerServiceOutlined';
import FileProtectOutlined from '@ant-design/icons/FileProtectOutlined';
import HomeOutlined from '@ant-design/icons/HomeOutlined';
import TeamOutlined from '@ant-design/icons/TeamOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import type { ReactNode } from 'react';
import type { PortalPhrases } from '../i18n/portal';

export type MenuKey = keyof PortalPhrases['menu'];

export interface MenuEntry {
  key: MenuKey;
  /** Route inside the portal. */
  path: string;
  icon: ReactNode;
  /** Any of these roles shows the entry (the spec's requiredRoles); none: everybody. */
  roles?: readonly string[];
  /** The screen is specified but not built yet: its page says so, and the menu marks it "Soon". */
  notYet?: true;
}

// The spec's menu, in its order.
const ENTRIES: readonly MenuEntry[] = [
  { key: 'home', path: '/', icon: <HomeOutlined /> },
  { key: 'profile', path: '/profile', icon: <UserOutlined /> },
  { key: 'rights', path: '/rights', icon: <AuditOutlined /> },
  { key: 'clients', path: '/clients', icon: <TeamOutlined />, roles: ['Administrator', 'IdentityConsultant'], notYet: true },
  { key: 'serviceManager', path: '/service-manager', icon: <CustomerServiceOutlined />, roles: ['ServiceManager'], notYet: true },
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
