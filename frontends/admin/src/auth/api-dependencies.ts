import type { ApiDependencies } from '@gatehouse/frontend-shared';

let current: ApiDependencies | undefined;

/**
 * The token and language sources of the signed-in console, kept here too so code outside React
 * and outside RTK Query (file downloads and uploads) reaches the same session as the store.
 */
export function setApiDependencies(dependencies: ApiDependencies | undefined): void {
  current = dependencies;
}

export function getApiDependencies(): ApiDependencies {
  if (!current) throw new Error('The admin session has not started');
  return current;
}
