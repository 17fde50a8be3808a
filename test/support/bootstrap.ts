/**
 * The applications every bootstrap file of a browser test declares: the Identity application with
 * all the product's roles, and the portal and the console as their clients (YAML list items,
 * under `applications:`). `${publicUrl}` is left for the product to replace.
 */
export const PRODUCT_APPLICATIONS = `
  - id: '1'
    name: identity
    displayName: Identity Management
    type: public
    privateUrl: '\${publicUrl}/admin'
    roles: [{ name: God }, { name: Administrator }, { name: AreaAdministrator }, { name: TenantAdministrator }, { name: Manager }, { name: User }, { name: IdentityConsultant }, { name: ServiceManager }]
  - { id: portal, name: portal, displayName: Portal, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${publicUrl}/auth/callback'], postLogoutRedirectUris: ['\${publicUrl}/'] }
  - { id: admin-console, name: admin-console, displayName: Administration console, type: public, firstParty: true, hideInUserList: true, redirectUris: ['\${publicUrl}/admin/auth/callback'], postLogoutRedirectUris: ['\${publicUrl}/admin/'] }`;
