import ApartmentOutlined from '@ant-design/icons/ApartmentOutlined';
import ApiOutlined from '@ant-design/icons/ApiOutlined';
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
import { mayOpenPage, type ConsolePage } from '../auth/console-access';

export type MenuKey = keyof AdminPhrases['menu'];

export interface MenuEntry {
  key: MenuKey;
  /** Route inside the console. */
  path: string;
  icon: ReactNode;
  /** The page the entry opens: shown to the roles that may open it; none (home): everybody. */
  page?: ConsolePage;
  /** The screen is specified but not built yet: its page says so, and the menu marks it. */
  notYet?: true;
}

// The spec's side menu, in its order. Each entry shows for the roles the admin API answers its
// page's call (auth/console-access.ts): God sees the Administrator entries as well as its own, a
// delegated administrator the part of the console its roles reach.
const ENTRIES: readonly MenuEntry[] = [
  { key: 'home', path: '/', icon: <HomeOutlined /> },
  { key: 'users', path: '/users', icon: <UserOutlined />, page: 'users' },
  { key: 'groups', path: '/groups', icon: <TeamOutlined />, page: 'groups' },
  { key: 'applications', path: '/applications', icon: <AppstoreOutlined />, page: 'applications' },
  { key: 'logs', path: '/logs', icon: <FileSearchOutlined />, page: 'logs' },
  { key: 'areas', path: '/areas', icon: <EnvironmentOutlined />, page: 'areas' },
  { key: 'tenants', path: '/tenants', icon: <ApartmentOutlined />, page: 'tenants' },
  { key: 'permissions', path: '/permissions', icon: <UnlockOutlined />, page: 'permissions' },
  { key: 'pats', path: '/pats', icon: <KeyOutlined />, page: 'pats' },
  { key: 'twoModeAuth', path: '/twomodeauth', icon: <SafetyCertificateOutlined />, page: 'twomodeauth' },
  { key: 'rightsRequests', path: '/rightsRequests', icon: <AuditOutlined />, page: 'rightsRequests' },
  { key: 'webhooks', path: '/webhooks', icon: <ApiOutlined />, page: 'webhooks' },
  { key: 'securityConfig', path: '/securityConfig', icon: <SafetyOutlined />, page: 'securityConfig' },
];

/** The console's pages the side menu does not list, with the phrase that names each. */
const UNLISTED_PAGE_NAMES = {
  'control-pats': 'menu.controlPats',
  inspector: 'screens.inspector',
} as const satisfies Partial<Record<ConsolePage, string>>;

/** The phrase naming a page: its menu entry's, or for a page the menu does not list, its own. */
export function pageNameKey(page: ConsolePage): `menu.${MenuKey}` | (typeof UNLISTED_PAGE_NAMES)[keyof typeof UNLISTED_PAGE_NAMES] {
  const entry = ENTRIES.find((candidate) => candidate.page === page);
  if (entry) return `menu.${entry.key}`;
  return UNLISTED_PAGE_NAMES[page as keyof typeof UNLISTED_PAGE_NAMES];
}

/** The side menu's entries the user may see. */
export function menuEntries(user: { readonly roles: readonly string[] }): MenuEntry[] {
  return ENTRIES.filter((entry) => !entry.page || mayOpenPage(user.roles, entry.page));
}

/** The entry a location belongs to: its first path segment ('/users/42' is under Users). */
export function selectedMenuKey(pathname: string): MenuKey | undefined {
  const segment = pathname.split('/')[1] ?? '';
  return ENTRIES.find((entry) => entry.path === `/${segment}`)?.key;
}
