import { fetchJson } from '@gatehouse/frontend-shared';

/** Configurable links of the shell; any left empty is not shown. */
export interface PortalLinks {
  helpdesk?: string;
  termsOfUse?: string;
  dataSubjectRights?: string;
  cookiePolicy?: string;
}

/** `GET /api/v1/config`: public settings the SPA reads before anything else. */
export interface PortalConfig {
  serviceUrl: string;
  identityServerUrl: string;
  /** OIDC issuer. */
  authority: string;
  clientId: string;
  adminClientId?: string;
  /** Space-separated. */
  scopes: string;
  environment: string;
  apps?: { portal?: string; admin?: string };
  microsoftSignIn?: boolean;
  /** Not sent by the service yet; the build's VITE_*_URL values apply meanwhile. */
  links?: PortalLinks;
}

export const PORTAL_CONFIG_PATH = '/api/v1/config';

// The spec gives the configuration call a shorter timeout than the others.
const CONFIG_TIMEOUT_MS = 30_000;

export function fetchPortalConfig(): Promise<PortalConfig> {
  return fetchJson<PortalConfig>(PORTAL_CONFIG_PATH, { signal: AbortSignal.timeout(CONFIG_TIMEOUT_MS) });
}
