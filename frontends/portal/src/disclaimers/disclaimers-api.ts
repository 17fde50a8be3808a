import type { AcceptDisclaimerBody, DisclaimerItem, DisclaimersPage, disclaimersRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { portalApi } from '../api/portal-api';

export type { DisclaimerItem, DisclaimersPage };

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const LIST: typeof disclaimersRoutes.list.path = '/api/v1/profile/disclaimers';
const ACCEPT: typeof disclaimersRoutes.accept.path = '/api/v1/profile/disclaimer/:id';

/** The spec's call: every disclaimer in one page, in the server's order. */
const LIST_QUERY = '?skip=0&take=9999';

export interface AcceptDisclaimerArgs {
  appInfoId: string;
  /** The version the user read: a newer one published meanwhile is refused, not accepted unread. */
  version: number;
}

export const disclaimersApi = portalApi.enhanceEndpoints({ addTagTypes: ['Disclaimer'] }).injectEndpoints({
  endpoints: (build) => ({
    disclaimers: build.query<DisclaimersPage, void>({
      query: () => `${LIST}${LIST_QUERY}`,
      providesTags: ['Disclaimer'],
    }),
    // Success or failure (a version published meanwhile), the list is read again.
    acceptDisclaimer: build.mutation<DisclaimerItem, AcceptDisclaimerArgs>({
      query: ({ appInfoId, version }) => ({
        url: pathOf({ path: ACCEPT }, { id: appInfoId }),
        method: 'PUT',
        body: { version } satisfies AcceptDisclaimerBody,
      }),
      invalidatesTags: ['Disclaimer'],
    }),
  }),
});

export const { useDisclaimersQuery, useAcceptDisclaimerMutation } = disclaimersApi;
