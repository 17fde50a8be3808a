import type { ApiDependencies } from '@gatehouse/frontend-shared';
import { configureStore } from '@reduxjs/toolkit';
import { adminApi } from './api/admin-api';

/** The console's store; its API calls get their token and language from `dependencies`. */
export function createAdminStore(dependencies: ApiDependencies) {
  return configureStore({
    reducer: { [adminApi.reducerPath]: adminApi.reducer },
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: dependencies } }).concat(adminApi.middleware),
  });
}

export type AdminStore = ReturnType<typeof createAdminStore>;
export type AdminState = ReturnType<AdminStore['getState']>;
export type AdminDispatch = AdminStore['dispatch'];
