import { rolesAllow, type EndpointName } from '@gatehouse/contracts';

/**
 * The console's pages by the first segment of their path, each with the call it is built on: a
 * page opens, and shows in the menu and on the dashboard, exactly for the roles the API answers
 * that call for. What a page then offers (buttons, row actions) asks the same table for its own calls.
 */
export const CONSOLE_PAGES = {
  users: 'users.list',
  groups: 'groups.list',
  applications: 'applications.list',
  logs: 'logs.authentication',
  areas: 'areas.list',
  tenants: 'tenants.list',
  permissions: 'tenantIdentities.users',
  pats: 'keys.list',
  twomodeauth: 'tenants.twoModeAuth',
  rightsRequests: 'rightsRequests.list',
  webhooks: 'webhooks.list',
  securityConfig: 'securityConfig.list',
  'control-pats': 'keys.all',
  inspector: 'inspector.inspect',
} as const satisfies Record<string, EndpointName>;

export type ConsolePage = keyof typeof CONSOLE_PAGES;

export function isConsolePage(segment: string): segment is ConsolePage {
  return Object.hasOwn(CONSOLE_PAGES, segment);
}

/** Whether `roles` open the page at `segment` (the home page opens for everyone in the console). */
export function mayOpenPage(roles: readonly string[], segment: ConsolePage): boolean {
  return rolesAllow(CONSOLE_PAGES[segment], roles);
}

/**
 * The console's entry rule: it opens for whoever holds at least one console right (a page they
 * may open). Administrators and God, and the delegated AreaAdministrator, TenantAdministrator and
 * Manager, each see their own part; anybody else goes to the portal.
 */
export function mayEnterConsole(roles: readonly string[]): boolean {
  return (Object.keys(CONSOLE_PAGES) as ConsolePage[]).some((page) => mayOpenPage(roles, page));
}

/**
 * Whether the admin API lets the signed-in `user` call `endpoint`: the API's own table
 * (ENDPOINT_ROLES) and the very function its guard asks, never restated here.
 */
export function mayCall(user: { readonly roles: readonly string[] }, endpoint: EndpointName): boolean {
  return rolesAllow(endpoint, user.roles);
}
