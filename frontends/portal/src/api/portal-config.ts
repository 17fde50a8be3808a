import type { PublicConfig, configRoutes } from '@gatehouse/contracts';
import { fetchJson } from '@gatehouse/frontend-shared';

/** `GET /api/v1/config`: public settings the SPA reads before anything else. */
export type PortalConfig = PublicConfig;

/**
 * The shell's configurable links: those the service sends, and the data-subject-rights page,
 * which only the build configures.
 */
export type PortalLinks = PublicConfig['links'] & { dataSubjectRights?: string };

export const PORTAL_CONFIG_PATH: typeof configRoutes.get.path = '/api/v1/config';

// The spec gives the configuration call a shorter timeout than the others.
const CONFIG_TIMEOUT_MS = 30_000;

export function fetchPortalConfig(): Promise<PortalConfig> {
  return fetchJson<PortalConfig>(PORTAL_CONFIG_PATH, { signal: AbortSignal.timeout(CONFIG_TIMEOUT_MS) });
}
