import type { Crumb } from '../../shell/PageHeader';
import type { ApplicationsT } from './use-applications-translation';

/** Where an application page's breadcrumbs start. */
export function applicationsCrumb(t: ApplicationsT): Crumb {
  return { title: t('list.title'), to: '/applications' };
}

/** An application's page inside the console, on one of its tabs when given. */
export function applicationPath(id: string, tab?: string): string {
  return `/applications/${encodeURIComponent(id)}${tab ? `/${encodeURIComponent(tab)}` : ''}`;
}
