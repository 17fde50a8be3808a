import type {
  ApplicationDetail,
  ApplicationOwner,
  ApplicationStatus,
  ApplicationSummary,
  applicationsRoutes,
  BodyOf,
  ResponseOf,
  SavedApplication,
} from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { productPath } from '@gatehouse/frontend-shared';
import { adminApi, toQueryString, type ListQuery } from '../../api/admin-api';

export type { ApplicationDetail, ApplicationOwner, ApplicationStatus, ApplicationSummary, SavedApplication };

type Routes = typeof applicationsRoutes;

/** What the New application dialog sends. */
export type NewApplication = BodyOf<Routes['create']>;
/** What the General properties form sends. */
export type ApplicationChanges = BodyOf<Routes['update']>;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const PATHS = {
  list: '/api/v1/admin/applications',
  one: '/api/v1/admin/applications/:id',
  status: '/api/v1/admin/applications/:id/:status',
  secret: '/api/v1/admin/applications/:id/secret',
  owners: '/api/v1/admin/applications/:id/owners',
  owner: '/api/v1/admin/applications/:id/owners/:userId',
} as const satisfies Record<string, Routes[keyof Routes]['path']>;

const APPLICATION_LIST_TAG = { type: 'Application' as const, id: 'LIST' };
const applicationTag = (id: string) => ({ type: 'Application' as const, id });

export const applicationsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    applications: build.query<ResponseOf<Routes['list']>, ListQuery>({
      query: (query) => `${PATHS.list}${toQueryString(query)}`,
      providesTags: [APPLICATION_LIST_TAG],
    }),
    application: build.query<ResponseOf<Routes['get']>, string>({
      query: (id) => pathOf({ path: PATHS.one }, { id }),
      providesTags: (_result, _error, id) => [applicationTag(id)],
    }),
    createApplication: build.mutation<SavedApplication, NewApplication>({
      query: (body) => ({ url: PATHS.list, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : [APPLICATION_LIST_TAG]),
    }),
    updateApplication: build.mutation<SavedApplication, { id: string; changes: ApplicationChanges }>({
      query: ({ id, changes }) => ({ url: pathOf({ path: PATHS.one }, { id }), method: 'PUT', body: changes }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [APPLICATION_LIST_TAG, applicationTag(id)]),
    }),
    setApplicationStatus: build.mutation<ResponseOf<Routes['setStatus']>, { id: string; status: ApplicationStatus }>({
      query: ({ id, status }) => ({ url: pathOf({ path: PATHS.status }, { id, status }), method: 'PUT' }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [APPLICATION_LIST_TAG, applicationTag(id)]),
    }),
    deleteApplication: build.mutation<void, string>({
      query: (id) => ({ url: pathOf({ path: PATHS.one }, { id }), method: 'DELETE' }),
      // Its roles went with it: every role list and role access shown may have changed.
      invalidatesTags: (_result, error) => (error ? [] : ['Application', 'User', 'Group']),
    }),
    regenerateApplicationSecret: build.mutation<ResponseOf<Routes['regenerateSecret']>, string>({
      query: (id) => ({ url: pathOf({ path: PATHS.secret }, { id }), method: 'POST' }),
      invalidatesTags: (_result, error, id) => (error ? [] : [applicationTag(id)]),
    }),
    addApplicationOwner: build.mutation<ApplicationOwner[], { id: string; userId: string }>({
      query: ({ id, userId }) => ({ url: pathOf({ path: PATHS.owners }, { id }), method: 'POST', body: { userId } }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [APPLICATION_LIST_TAG, applicationTag(id)]),
    }),
    removeApplicationOwner: build.mutation<ApplicationOwner[], { id: string; userId: string }>({
      query: ({ id, userId }) => ({ url: pathOf({ path: PATHS.owner }, { id, userId }), method: 'DELETE' }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [APPLICATION_LIST_TAG, applicationTag(id)]),
    }),
  }),
});

export const {
  useApplicationsQuery,
  useApplicationQuery,
  useCreateApplicationMutation,
  useUpdateApplicationMutation,
  useSetApplicationStatusMutation,
  useDeleteApplicationMutation,
  useRegenerateApplicationSecretMutation,
  useAddApplicationOwnerMutation,
  useRemoveApplicationOwnerMutation,
} = applicationsApi;

/** Where an application's icon is served to anyone (an <img> sends no token); `version` busts the cache after a change. */
export function applicationIconUrl(id: string, version?: string): string {
  return productPath(`/api/v1/applications/icon/${encodeURIComponent(id)}${version ? `?v=${encodeURIComponent(version)}` : ''}`);
}
