import { Application, ApplicationSamlSettings, type AppContext } from '@gatehouse/core';

/** A SAML application as the identity provider serves it. */
export interface ServiceProvider {
  application: Pick<Application, 'id' | 'name' | 'displayName' | 'status'>;
  settings: ApplicationSamlSettings;
}

/** The enabled SAML application whose entity id this is, or undefined. */
export async function findServiceProvider(context: AppContext, entityId: string): Promise<ServiceProvider | undefined> {
  const settings = await context.dataSource.getRepository(ApplicationSamlSettings).findOne({ where: { entityId }, relations: { application: true } });
  const application = settings?.application;
  if (!settings || !application || !application.enabled || application.protocol !== 'saml') return undefined;
  return { application, settings };
}

/** The enabled SAML application with this id, or undefined. */
export async function findServiceProviderById(context: AppContext, applicationId: string): Promise<ServiceProvider | undefined> {
  const settings = await context.dataSource.getRepository(ApplicationSamlSettings).findOne({ where: { applicationId }, relations: { application: true } });
  const application = settings?.application;
  if (!settings || !application || !application.enabled || application.protocol !== 'saml') return undefined;
  return { application, settings };
}
