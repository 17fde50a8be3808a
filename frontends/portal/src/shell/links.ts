import type { PortalConfig, PortalLinks } from '../api/portal-config';

export interface ShellLink {
  href: string;
  /** Another site: opens in a new tab. Else a route of the portal. */
  external: boolean;
}

export type ShellLinks = Partial<Record<keyof PortalLinks, ShellLink>>;

/** The data-subject-rights page ("Exercise rights"), unless configured otherwise. */
export const DEFAULT_DATA_SUBJECT_RIGHTS = '/rights';

function toLink(value: string | undefined): ShellLink | undefined {
  const href = value?.trim();
  if (!href) return undefined;
  const internal = href.startsWith('/') && !href.startsWith('//');
  return { href, external: !internal };
}

/**
 * The shell's configurable links: /api/v1/config `links` first, then the build's VITE_*_URL
 * values (the only source of the data-subject-rights page). A link left empty is not shown (the
 * Helpdesk has no default).
 */
export function resolveLinks(config: Partial<Pick<PortalConfig, 'links'>>, env: ImportMetaEnv = import.meta.env): ShellLinks {
  const links = config.links ?? {};
  return {
    helpdesk: toLink(links.helpdesk ?? env.VITE_HELPDESK_URL),
    termsOfUse: toLink(links.termsOfUse ?? env.VITE_TERMS_OF_USE_URL),
    // The service sends no such link: only the build moves the page.
    dataSubjectRights: toLink(env.VITE_DATA_SUBJECT_RIGHTS_URL ?? DEFAULT_DATA_SUBJECT_RIGHTS),
    cookiePolicy: toLink(links.cookiePolicy ?? env.VITE_COOKIE_POLICY_URL),
  };
}
