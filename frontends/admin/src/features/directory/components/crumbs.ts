import { useLocation } from 'react-router';
import { breadcrumbsFromState, type Crumb } from '../../../shell/PageHeader';
import type { DirectoryT } from '../use-directory-translation';

/** Where a user page's breadcrumbs start. */
export function usersCrumb(t: DirectoryT): Crumb {
  return { title: t('users.title'), to: '/users' };
}

/** Where a group page's breadcrumbs start. */
export function groupsCrumb(t: DirectoryT): Crumb {
  return { title: t('groups.title'), to: '/groups' };
}

/**
 * Where a detail page's back arrow leads: the last linked step of the trail the opening link
 * carried (the list as it was left, or the group the user was reached from), else `fallback`. A
 * route rather than "one step back", so a page opened in a new tab still has somewhere to go.
 */
export function useBackTo(fallback: string): string {
  const trail = breadcrumbsFromState(useLocation().state) ?? [];
  return [...trail].reverse().find((crumb) => crumb.to)?.to ?? fallback;
}
