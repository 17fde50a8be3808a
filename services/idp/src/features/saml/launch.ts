import { Application, ApplicationSamlSettings, type AppContext } from '@gatehouse/core';
import type { ServiceProvider } from './service-providers.js';

/**
 * The enabled SAML application of this name (its client_id, as the portal's launcher links to it),
 * or undefined. A stopped one is found: its sign-in ends on the product's page saying so.
 */
export async function findLaunchableServiceProvider(context: AppContext, name: string): Promise<ServiceProvider | undefined> {
  const application = await context.dataSource.getRepository(Application).findOne({ where: { name, enabled: true, protocol: 'saml' } });
  if (!application) return undefined;
  const settings = await context.dataSource.getRepository(ApplicationSamlSettings).findOne({ where: { applicationId: application.id } });
  return settings ? { application, settings } : undefined;
}
