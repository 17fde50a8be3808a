import { fetchJson } from '@gatehouse/frontend-shared';

/** The part of `GET /api/v1/config` the console reads. */
export interface AdminConfig {
  /** OIDC issuer. */
  authority: string;
  /** The console's public client ('admin-console'). */
  adminClientId?: string;
  /** Space-separated: the portal's. */
  scopes: string;
  /** Space-separated: the console's, with the admin API scope (`admin`). */
  adminScopes?: string;
  environment?: string;
  apps?: { portal?: string; admin?: string };
}

export const CONFIG_PATH = '/api/v1/config';

/** The client id when the service does not send one (its own default). */
export const DEFAULT_ADMIN_CLIENT_ID = 'admin-console';

// The spec gives the configuration call a shorter timeout than the others.
const CONFIG_TIMEOUT_MS = 30_000;

export function fetchAdminConfig(): Promise<AdminConfig> {
  return fetchJson<AdminConfig>(CONFIG_PATH, { signal: AbortSignal.timeout(CONFIG_TIMEOUT_MS) });
}
