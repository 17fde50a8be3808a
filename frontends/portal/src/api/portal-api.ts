import { authorizedBaseQuery } from '@gatehouse/frontend-shared';
import { createApi } from '@reduxjs/toolkit/query/react';

// The store is typed with them; they live in the shared package with the base query.
export type { ApiDependencies } from '@gatehouse/frontend-shared';

/** An application as `homeInfo` lists it. */
export interface Application {
  id: string;
  title: string;
  description: string | null;
  publicUrl: string | null;
  privateUrl: string | null;
  prerelease: boolean;
  hasAccess: boolean;
  isUserFavorite: boolean;
  status: 'Running' | 'Maintenance' | 'Stopped' | string;
}

export interface HomeInfo {
  applications: { items: Application[]; count: number };
  /** Where customers without the Identity application are sent. */
  clientPortalAppId: string | null;
}

export type ApplicationStatus = 'Running' | 'Maintenance' | 'Stopped';

export interface PasswordResetReply {
  success: boolean;
  message?: string;
}

/** Icons are public (an <img> carries no token), so they load as plain image URLs. */
export function applicationIconUrl(appId: string): string {
  return `/api/v1/applications/icon/${encodeURIComponent(appId)}`;
}

export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: authorizedBaseQuery,
  endpoints: (build) => ({
    homeInfo: build.query<HomeInfo, void>({
      query: () => '/api/v1/admin/applications/homeInfo',
    }),
    applicationStatus: build.query<string, string>({
      query: (name) => ({
        url: `/api/v1/applications/status/${encodeURIComponent(name)}`,
        responseHandler: 'text',
      }),
    }),
    // A GET with an effect (it mails a reset link), so never cached: a mutation.
    requestPasswordReset: build.mutation<PasswordResetReply, string>({
      query: (userName) => ({ url: `/api/v1/profile/resetPassword/${encodeURIComponent(userName)}`, method: 'GET' }),
    }),
  }),
});

export const { useHomeInfoQuery, useApplicationStatusQuery, useRequestPasswordResetMutation } = portalApi;
