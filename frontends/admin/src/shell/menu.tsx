import ApartmentOutlined from '@ant-design/icons/ApartmentOutlined';
import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import EnvironmentOutlined from '@ant-design/icons/EnvironmentOutlined';
import AuditOutlined from '@ant-design/icons/AuditOutlined';
import FileSearchOutlined from '@ant-design/icons/FileSearchOutlined';
import HomeOutlined from '@ant-design/icons/HomeOutlined';
import KeyOutlined from '@ant-design/icons/KeyOutlined';
import SafetyCertificateOutlined from '@ant-design/icons/SafetyCertificateOutlined';
import SafetyOutlined from '@ant-design/icons/SafetyOutlined';
import TeamOutlined from '@ant-design/icons/TeamOutlined';
import UnlockOutlined from '@ant-design/icons/UnlockOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import type { ReactNode } from 'react';
import type { AdminPhrases } from '../i18n/en';
import { Roles } from '../auth/roles';
import type { CurrentUser } from '../auth/use-current-user';

export type MenuKey = keyof AdminPhrases['menu'];

export interface MenuEntry {
  key: MenuKey;
  /** Route inside the console. */
  path: string;
  icon: ReactNode;
  /** Any of these roles shows the entry (God counts as Administrator); none: everybody. */
  roles?: string[];
  /** The screen is specified but not built yet: its page says so, and the menu marks it. */
  notYet?: true;
}

// The spec's side menu, in its order. God holds every Administrator right, so it sees the
// Administrator entries as well as its own.
const ENTRIES: readonly MenuEntry[] = [
  { key: 'home', path: '/', icon: <HomeOutlined /> },
  { key: 'users', path: '/users', icon: <UserOutlined />, roles: [Roles.Administrator, Roles.AreaAdministrator] },
  { key: 'groups', path: '/groups', icon: <TeamOutlined />, roles: [Roles.Administrator, Roles.AreaAdministrator] },
  { key: 'applications', path: '/applications', icon: <AppstoreOutlined />, roles: [Roles.Administrator] },
  { key: 'logs', path: '/logs', icon: <FileSearchOutlined />, roles: [Roles.Administrator] },
  { key: 'areas', path: '/areas', icon: <EnvironmentOutlined />, roles: [Roles.Administrator] },
  { key: 'tenants', path: '/tenants', icon: <ApartmentOutlined />, roles: [Roles.Administrator] },
  { key: 'permissions', path: '/permissions', icon: <UnlockOutlined />, roles: [Roles.Administrator] },
  { key: 'pats', path: '/pats', icon: <KeyOutlined />, roles: [Roles.Administrator] },
  { key: 'twoModeAuth', path: '/twomodeauth', icon: <SafetyCertificateOutlined />, roles: [Roles.Administrator] },
  { key: 'rightsRequests', path: '/rightsRequests', icon: <AuditOutlined />, roles: [Roles.Administrator] },
  { key: 'securityConfig', path: '/securityConfig', icon: <SafetyOutlined />, roles: [Roles.God] },
];

/** The side menu's entries the user may see. */
export function menuEntries(user: Pick<CurrentUser, 'hasRole'>): MenuEntry[] {
  return ENTRIES.filter((entry) => !entry.roles || user.hasRole(...entry.roles));
}

/** The entry a location belongs to: its first path segment ('/users/42' is under Users). */
export function selectedMenuKey(pathname: string): MenuKey | undefined {
  const segment = pathname.split('/')[1] ?? '';
  return ENTRIES.find((entry) => entry.path === `/${segment}`)?.key;
}
