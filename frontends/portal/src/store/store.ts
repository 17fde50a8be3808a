import { configureStore } from '@reduxjs/toolkit';
import { portalApi, type ApiDependencies } from '../api/portal-api';

/** The signed-in portal's store; its API calls get their token and language from `dependencies`. */
export function createPortalStore(dependencies: ApiDependencies) {
  return configureStore({
    reducer: { [portalApi.reducerPath]: portalApi.reducer },
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: dependencies } }).concat(portalApi.middleware),
  });
}

export type PortalStore = ReturnType<typeof createPortalStore>;
export type PortalState = ReturnType<PortalStore['getState']>;

/** True while any API call is under way: the shell's busy spinner. */
export function selectIsBusy(state: PortalState): boolean {
  const { queries, mutations } = state[portalApi.reducerPath];
  return [...Object.values(queries), ...Object.values(mutations)].some((entry) => entry?.status === 'pending');
}
