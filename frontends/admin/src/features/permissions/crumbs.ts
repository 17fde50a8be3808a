import type { Crumb } from '../../shell/PageHeader';
import type { PermissionsT } from './use-permissions-translation';

/** The Permissions page's tabs. */
export const PERMISSION_TABS = ['users', 'groups'] as const;
export type PermissionTab = (typeof PERMISSION_TABS)[number];

/** The Permissions page, on one of its tabs when given. */
export function permissionsPath(tab?: PermissionTab): string {
  return tab ? `/permissions?tab=${tab}` : '/permissions';
}

/** A group's page under Permissions (Group Details). */
export function groupPermissionsPath(groupId: string): string {
  return `/permissions/${encodeURIComponent(groupId)}`;
}

/** The User Permissions page: a path of two segments, so it never reads as a group's id. */
export const USER_PERMISSIONS_PATH = '/permissions/users/check';

/** Where the pages under Permissions start their breadcrumbs. */
export function permissionsCrumb(t: PermissionsT, tab?: PermissionTab): Crumb {
  return { title: t('page.title'), to: permissionsPath(tab) };
}
