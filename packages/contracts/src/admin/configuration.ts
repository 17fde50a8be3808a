import { defineRoute, type RouteContract } from '../route.js';

/** The media type of the configuration file (a bootstrap file). */
export const CONFIGURATION_EXPORT_MEDIA_TYPE = 'application/yaml';

/** `/api/v1/admin/configuration/export` (God): the deployment's configuration as a bootstrap file. */
export const configurationRoutes = {
  export: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/configuration/export',
    endpoint: 'configuration.export',
    access: 'roles',
    summary:
      'The whole configuration as a bootstrap file (YAML), as an attachment: areas, tenants with their MFA settings, applications with roles, scopes and disclaimers, groups and their roles, the security settings saved, webhook endpoints. Secrets are written as ${env:NAME} references listed in its header; users are not in it',
    produces: CONFIGURATION_EXPORT_MEDIA_TYPE,
  }),
} satisfies Record<string, RouteContract>;
