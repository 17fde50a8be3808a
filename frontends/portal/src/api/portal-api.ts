import type {
  CompaniesPage,
  CompaniesQuery,
  Company,
  CurrentCompanyBody,
  HomeApplication,
  HomeInfo,
  MyProfile,
  PasswordResetSent,
  ProfileChanges,
  applicationsRoutes,
  portalApplicationsRoutes,
  profileRoutes,
} from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { authorizedBaseQuery, productPath } from '@gatehouse/frontend-shared';
import { createApi } from '@reduxjs/toolkit/query/react';

// The store is typed with them; they live in the shared package with the base query.
export type { ApiDependencies } from '@gatehouse/frontend-shared';

/** An application as `homeInfo` lists it. */
export type Application = HomeApplication;
export type { CompaniesPage, Company, HomeInfo, MyProfile, ProfileChanges };

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const HOME_INFO: typeof applicationsRoutes.homeInfo.path = '/api/v1/admin/applications/homeInfo';
const ICON: typeof portalApplicationsRoutes.icon.path = '/api/v1/applications/icon/:appId';
const STATUS: typeof portalApplicationsRoutes.status.path = '/api/v1/applications/status/:name';
const RESET_PASSWORD: typeof profileRoutes.resetPassword.path = '/api/v1/profile/resetPassword/:name';
const PROFILE: typeof profileRoutes.get.path = '/api/v1/profile';
const COMPANIES: typeof profileRoutes.tenants.path = '/api/v1/profile/tenants';
const CURRENT_COMPANY: typeof profileRoutes.setCurrentCompany.path = '/api/v1/profile/currentCompany';

/** The tenant selector's query string: the search when there is one, skip and take. */
function companiesQueryString({ searchQuery, skip = 0, take = 10 }: CompaniesQuery): string {
  const params = new URLSearchParams({ skip: String(skip), take: String(take) });
  if (searchQuery?.trim()) params.set('searchQuery', searchQuery.trim());
  return `?${params}`;
}

/** Icons are public (an <img> carries no token), so they load as plain image URLs. */
export function applicationIconUrl(appId: string): string {
  return productPath(pathOf({ path: ICON }, { appId }));
}

export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: authorizedBaseQuery,
  tagTypes: ['Profile', 'Company'],
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
    myProfile: build.query<MyProfile, void>({
      query: () => PROFILE,
      providesTags: ['Profile'],
    }),
    updateProfile: build.mutation<MyProfile, ProfileChanges>({
      query: (body) => ({ url: PROFILE, method: 'PUT', body }),
      // The answer is the updated profile: the cache takes it without asking again.
      async onQueryStarted(_changes, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) void dispatch(portalApi.util.upsertQueryData('myProfile', undefined, data));
      },
    }),
    companies: build.query<CompaniesPage, CompaniesQuery>({
      query: (query) => `${COMPANIES}${companiesQueryString(query)}`,
      providesTags: ['Company'],
    }),
    setCurrentCompany: build.mutation<Company, CurrentCompanyBody>({
      query: (body) => ({ url: CURRENT_COMPANY, method: 'PUT', body }),
      invalidatesTags: ['Profile'],
    }),
  }),
});

export const {
  useHomeInfoQuery,
  useApplicationStatusQuery,
  useRequestPasswordResetMutation,
  useMyProfileQuery,
  useUpdateProfileMutation,
  useCompaniesQuery,
  useSetCurrentCompanyMutation,
} = portalApi;
