import type { Crumb } from '../../shell/PageHeader';
import type { WebhooksT } from './use-webhooks-translation';

/** Where an endpoint page's breadcrumbs start. */
export function webhooksCrumb(t: WebhooksT): Crumb {
  return { title: t('list.title'), to: '/webhooks' };
}

/** An endpoint's page inside the console. */
export function webhookPath(id: string): string {
  return `/webhooks/${encodeURIComponent(id)}`;
}
