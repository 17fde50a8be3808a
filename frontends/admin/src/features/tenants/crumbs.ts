import { breadcrumbState, type BreadcrumbState, type Crumb } from '../../shell/PageHeader';
import type { TenantsT } from './use-tenants-translation';

/** Where a tenant page's breadcrumbs start. */
export function tenantsCrumb(t: TenantsT): Crumb {
  return { title: t('list.title'), to: '/tenants' };
}

/** A tenant's page inside the console. */
export function tenantPath(id: string): string {
  return `/tenants/${encodeURIComponent(id)}`;
}

/** The navigation state of a link to a tenant's page: Home › Tenants › its title. */
export function tenantLinkState(t: TenantsT, title: string): BreadcrumbState {
  return breadcrumbState([tenantsCrumb(t), { title }]);
}
