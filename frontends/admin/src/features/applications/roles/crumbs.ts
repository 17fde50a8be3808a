import type { Crumb } from '../../../shell/PageHeader';
import type { ApplicationRolesT } from './use-application-roles-translation';

/** The trail to an application's page: the applications list, then the application. */
export function applicationCrumbs(t: ApplicationRolesT, applicationId: string, applicationName: string): Crumb[] {
  return [
    { title: t('crumbs.applications'), to: '/applications' },
    { title: applicationName, to: `/applications/${encodeURIComponent(applicationId)}` },
  ];
}

/** A role's detail page inside the console. */
export function rolePath(applicationId: string, roleId: string): string {
  return `/applications/${encodeURIComponent(applicationId)}/roles/${encodeURIComponent(roleId)}`;
}
