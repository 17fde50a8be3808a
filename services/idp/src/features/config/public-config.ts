import type { Config, SecuritySettingValues } from '@gatehouse/core';
import type { PublicConfig } from '@gatehouse/contracts';

/**
 * The configuration the SPAs read before anything else: public values only, never a secret. The
 * group domains and the password policy are the security settings in force.
 */
export function publicConfigOf(config: Config, settings: Pick<SecuritySettingValues, 'GroupDomains' | 'PasswordPolicy'>): PublicConfig {
  return {
    serviceUrl: config.server.publicUrl,
    identityServerUrl: config.server.publicUrl,
    authority: config.oidc.issuer,
    clientId: config.oidc.portalClientId,
    adminClientId: config.oidc.adminClientId,
    scopes: 'openid profile email roles offline_access',
    // The console also asks for the admin API's scope: its access token is then a JWT for that audience.
    adminScopes: 'openid profile email roles offline_access admin',
    environment: config.app.environment,
    // The login page shows the Microsoft button only when the sign-in is configured.
    microsoftSignIn: config.microsoft.enabled,
    // The login page hides the password of a group user as the name is typed (the server decides).
    groupDomains: settings.GroupDomains.domains,
    groupDomainFragment: settings.GroupDomains.domainFragment ?? undefined,
    // The pages list the rules a new password must meet; the server enforces them.
    policy: settings.PasswordPolicy,
    links: {
      helpdesk: config.portal.helpdeskUrl,
      support: config.portal.supportUrl,
      termsOfUse: config.portal.termsOfUseUrl,
      cookiePolicy: config.portal.cookiePolicyUrl,
    },
    apps: {
      portal: `${config.server.publicUrl}/`,
      admin: `${config.server.publicUrl}/admin`,
    },
  };
}
