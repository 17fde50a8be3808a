import type { PublicConfig, configRoutes } from '@gatehouse/contracts';
import { fetchJson } from '@gatehouse/frontend-shared';

/** `GET /api/v1/config`: the public settings the console reads before anything else. */
export type AdminConfig = PublicConfig;

export const CONFIG_PATH: typeof configRoutes.get.path = '/api/v1/config';

// The spec gives the configuration call a shorter timeout than the others.
const CONFIG_TIMEOUT_MS = 30_000;

export function fetchAdminConfig(): Promise<AdminConfig> {
  return fetchJson<AdminConfig>(CONFIG_PATH, { signal: AbortSignal.timeout(CONFIG_TIMEOUT_MS) });
}
