import { createI18n, perLanguage, phraseLoaders, type CreateI18nOptions, type Language } from '@gatehouse/frontend-shared';
import { applicationsPhraseLoaders, type ApplicationsPhrases } from '../features/applications/i18n';
import { applicationRolesPhraseLoaders, type ApplicationRolesPhrases } from '../features/applications/roles/i18n';
import { scimPhraseLoaders, type ScimPhrases } from '../features/applications/scim/i18n';
import type { DirectoryPhrases } from '../features/directory/i18n';
import { logsPhraseLoaders, type LogsPhrases } from '../features/logs/i18n';
import { notificationsPhraseLoaders, type NotificationsPhrases } from '../features/notifications/i18n';
import { permissionsPhraseLoaders, type PermissionsPhrases } from '../features/permissions/i18n';
import { tenantsPhraseLoaders, type TenantsPhrases } from '../features/tenants/i18n';
import { webhooksPhraseLoaders, type WebhooksPhrases } from '../features/webhooks/i18n';
import type { AdminPhrases } from './en';

export type { AdminPhrases };

/** The console's own phrases (shell, menu, dashboard…), namespace 'admin': one chunk per language. */
export const adminPhraseLoaders = phraseLoaders<AdminPhrases>(import.meta.glob('./{en,fr,es,pt-pt,pt-br,it,de}.ts'));

// Users, groups and areas own their phrases (namespace 'directory'); they ship as one table of
// the seven languages, fetched with the first page that needs them.
export const directoryPhraseLoaders: Record<Language, () => Promise<DirectoryPhrases>> = perLanguage(
  (language) => () => import('../features/directory/i18n').then((module) => module.directoryPhrases[language]),
);

export const adminNamespaces = {
  admin: adminPhraseLoaders,
  directory: directoryPhraseLoaders,
  // An application's roles, their scopes and its users, fetched with the first page that needs them.
  applicationRoles: applicationRolesPhraseLoaders,
  // The applications list and an application's page.
  applications: applicationsPhraseLoaders,
  // An application's SCIM provisioning tab and its dialogs (administrators).
  scim: scimPhraseLoaders,
  // The tenants list, a tenant's page and its members.
  tenants: tenantsPhraseLoaders,
  // The Permissions pages (tenant identities, group details, a user's permissions) and the MFA configuration.
  permissions: permissionsPhraseLoaders,
  // The Logs page and its four tabs.
  logs: logsPhraseLoaders,
  // The webhook endpoints list, an endpoint's page and its delivery log.
  webhooks: webhooksPhraseLoaders,
  // The notifications flyout, its toasts and the running processes (on every page, fetched after it).
  notifications: notificationsPhraseLoaders,
};

/**
 * i18n options of the console: `useTranslation('admin')` and `useTranslation('directory')`. The
 * console's own phrases are fetched at start (the splash shows the slogan); the directory's with
 * the first page that needs them.
 */
export const adminI18nOptions: CreateI18nOptions = { namespaces: adminNamespaces, preload: ['admin'] };

/** The console's i18n instance; tests pin a language with `{ language }`. */
export function createAdminI18n(options: Omit<CreateI18nOptions, 'namespaces' | 'preload'> = {}) {
  return createI18n({ ...options, ...adminI18nOptions });
}

declare module '@gatehouse/frontend-shared' {
  interface I18nNamespaces {
    admin: AdminPhrases;
    directory: DirectoryPhrases;
    applicationRoles: ApplicationRolesPhrases;
    applications: ApplicationsPhrases;
    scim: ScimPhrases;
    tenants: TenantsPhrases;
    permissions: PermissionsPhrases;
    logs: LogsPhrases;
    notifications: NotificationsPhrases;
    webhooks: WebhooksPhrases;
  }
}
