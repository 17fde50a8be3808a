import type { BodyOf, ResponseOf, ScimTokenItem, scimTokensRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { productPath } from '@gatehouse/frontend-shared';
import { adminApi } from '../../../api/admin-api';

type Routes = typeof scimTokensRoutes;

/** A SCIM token as the tab lists it: never its value. */
export type ScimToken = ScimTokenItem;
/** What an issue answers: the token and, this once, its value and the SCIM base URL. */
export type IssuedScimToken = ResponseOf<Routes['create']>;

/** What the New token dialog sends. */
export type NewScimToken = BodyOf<Routes['create']>;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const PATHS = {
  list: '/api/v1/admin/applications/:id/scimTokens',
  one: '/api/v1/admin/applications/:id/scimTokens/:tokenId',
} as const satisfies Record<string, Routes[keyof Routes]['path']>;

/** Where the server serves SCIM 2.0, from the product's root. */
export const SCIM_PATH = '/scim/v2';

/**
 * The SCIM base URL as the console knows it: its own origin and the product's base path (the
 * server's answer to an issue carries the one built from PUBLIC_URL, which the dialog shows).
 */
export function scimBaseUrl(): string {
  return `${window.location.origin}${productPath(SCIM_PATH)}`;
}

const tokensTag = (applicationId: string) => ({ type: 'ScimToken' as const, id: applicationId });

export const scimApi = adminApi.enhanceEndpoints({ addTagTypes: ['ScimToken'] }).injectEndpoints({
  endpoints: (build) => ({
    scimTokens: build.query<ResponseOf<Routes['list']>, string>({
      query: (id) => pathOf({ path: PATHS.list }, { id }),
      providesTags: (_result, _error, id) => [tokensTag(id)],
    }),
    createScimToken: build.mutation<IssuedScimToken, { applicationId: string; token: NewScimToken }>({
      query: ({ applicationId, token }) => ({ url: pathOf({ path: PATHS.list }, { id: applicationId }), method: 'POST', body: token }),
      invalidatesTags: (_result, error, { applicationId }) => (error ? [] : [tokensTag(applicationId)]),
    }),
    deleteScimToken: build.mutation<void, { applicationId: string; tokenId: string }>({
      query: ({ applicationId, tokenId }) => ({ url: pathOf({ path: PATHS.one }, { id: applicationId, tokenId }), method: 'DELETE' }),
      invalidatesTags: (_result, error, { applicationId }) => (error ? [] : [tokensTag(applicationId)]),
    }),
  }),
});

export const { useScimTokensQuery, useCreateScimTokenMutation, useDeleteScimTokenMutation } = scimApi;
