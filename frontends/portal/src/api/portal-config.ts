import { fetchJson } from '@gatehouse/frontend-shared';

export interface PortalConfig {
  serviceUrl: string;
  /** Not rendered yet; its shape is owned by the service and will be typed when used. */
  apps: unknown[];
  scopes: string[];
  clientId: string;
  identityServerUrl: string;
  environment: string;
}

export const PORTAL_CONFIG_PATH = '/api/v1/config';

export function fetchPortalConfig(signal?: AbortSignal): Promise<PortalConfig> {
  return fetchJson<PortalConfig>(PORTAL_CONFIG_PATH, { signal: signal ?? null });
}
