import type { BodyOf, CreatedPersonalAccessToken, keysRoutes, PatApplication, PersonalAccessToken, ResponseOf } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../api/admin-api';

export type { CreatedPersonalAccessToken, PatApplication, PersonalAccessToken };

type Routes = typeof keysRoutes;

/** What the New PAT dialog sends. */
export type NewPat = BodyOf<Routes['create']>;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const KEYS: Routes['list']['path'] = '/api/v1/keys';
const ALL: Routes['all']['path'] = '/api/v1/keys/allpats';
const APPLICATIONS: Routes['applications']['path'] = '/api/v1/keys/applications';
const ONE: Routes['delete']['path'] = '/api/v1/keys/:id';

/** Every token list: a creation or a deletion refreshes the caller's and God's lists alike. */
const PAT_LIST_TAG = { type: 'Pat' as const, id: 'LIST' };

export const patsApi = adminApi.enhanceEndpoints({ addTagTypes: ['Pat'] }).injectEndpoints({
  endpoints: (build) => ({
    myPats: build.query<ResponseOf<Routes['list']>, ListQuery>({
      query: (query) => `${KEYS}${toQueryString(query)}`,
      providesTags: [PAT_LIST_TAG],
    }),
    allPats: build.query<ResponseOf<Routes['all']>, ListQuery>({
      query: (query) => `${ALL}${toQueryString(query)}`,
      providesTags: [PAT_LIST_TAG],
    }),
    patApplications: build.query<ResponseOf<Routes['applications']>, void>({
      query: () => APPLICATIONS,
    }),
    createPat: build.mutation<CreatedPersonalAccessToken, NewPat>({
      query: (body) => ({ url: KEYS, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : [PAT_LIST_TAG]),
    }),
    deletePat: build.mutation<void, string>({
      query: (id) => ({ url: pathOf({ path: ONE }, { id }), method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [PAT_LIST_TAG]),
    }),
  }),
});

export const { useMyPatsQuery, useAllPatsQuery, usePatApplicationsQuery, useCreatePatMutation, useDeletePatMutation } = patsApi;
