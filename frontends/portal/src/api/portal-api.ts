import type {
  HomeApplication,
  HomeInfo,
  PasswordResetSent,
  applicationsRoutes,
  portalApplicationsRoutes,
  profileRoutes,
} from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { authorizedBaseQuery } from '@gatehouse/frontend-shared';
import { createApi } from '@reduxjs/toolkit/query/react';

// The store is typed with them; they live in the shared package with the base query.
export type { ApiDependencies } from '@gatehouse/frontend-shared';

/** An application as `homeInfo` lists it. */
export type Application = HomeApplication;
export type { HomeInfo };

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const HOME_INFO: typeof applicationsRoutes.homeInfo.path = '/api/v1/admin/applications/homeInfo';
const ICON: typeof portalApplicationsRoutes.icon.path = '/api/v1/applications/icon/:appId';
const STATUS: typeof portalApplicationsRoutes.status.path = '/api/v1/applications/status/:name';
const RESET_PASSWORD: typeof profileRoutes.resetPassword.path = '/api/v1/profile/resetPassword/:name';

/** Icons are public (an <img> carries no token), so they load as plain image URLs. */
export function applicationIconUrl(appId: string): string {
  return pathOf({ path: ICON }, { appId });
}

export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: authorizedBaseQuery,
  endpoints: (build) => ({
    homeInfo: build.query<HomeInfo, void>({
      query: () => HOME_INFO,
    }),
    applicationStatus: build.query<string, string>({
      query: (name) => ({ url: pathOf({ path: STATUS }, { name }), responseHandler: 'text' }),
    }),
    // A GET with an effect (it mails a reset link), so never cached: a mutation.
    requestPasswordReset: build.mutation<PasswordResetSent, string>({
      query: (userName) => ({ url: pathOf({ path: RESET_PASSWORD }, { name: userName }), method: 'GET' }),
    }),
  }),
});

export const { useHomeInfoQuery, useApplicationStatusQuery, useRequestPasswordResetMutation } = portalApi;
