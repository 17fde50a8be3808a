import type { ResponseOf, tenantsRoutes, TwoModeAuthBody, TwoModeAuthResponse } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { adminApi, toQueryString, type ListQuery } from '../../api/admin-api';

export type { TwoModeAuthResponse };

type Routes = typeof tenantsRoutes;
export type MfaTenant = ResponseOf<Routes['list']>['items'][number];

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const LIST: Routes['list']['path'] = '/api/v1/admin/tenants';
const TWO_MODE_AUTH: Routes['twoModeAuth']['path'] = '/api/v1/admin/tenants/twoModeAuth/:id';

export const mfaApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    /** The tenants with their second-factor flag (the MFA Configuration page). */
    mfaTenants: build.query<ResponseOf<Routes['list']>, ListQuery>({
      query: (query) => `${LIST}${toQueryString(query)}`,
      // A tenant created, renamed or deleted elsewhere refreshes the page.
      providesTags: [{ type: 'Tenant', id: 'LIST' }],
    }),
    /** `phishingResistantOnly` left out keeps it as it is (turning the second factor off turns it off too). */
    setTwoModeAuth: build.mutation<TwoModeAuthResponse, TwoModeAuthBody & { id: string }>({
      query: ({ id, ...body }) => ({ url: pathOf({ path: TWO_MODE_AUTH }, { id }), method: 'POST', body }),
      // Every cached page of the list shows the new positions at once; a refusal puts them back,
      // and the answer (the tenant as it now stands) has the last word.
      async onQueryStarted({ id, enable, phishingResistantOnly }, { dispatch, getState, queryFulfilled }) {
        const show = (flags: Pick<MfaTenant, 'requiredTwoModeAuthentification'> & { phishingResistantOnly?: boolean }) =>
          mfaApi.util.selectCachedArgsForQuery(getState(), 'mfaTenants').map((args) =>
            dispatch(
              mfaApi.util.updateQueryData('mfaTenants', args, (page) => {
                const tenant = page.items.find((item) => item.id === id);
                if (!tenant) return;
                tenant.requiredTwoModeAuthentification = flags.requiredTwoModeAuthentification;
                tenant.phishingResistantOnly = flags.requiredTwoModeAuthentification && (flags.phishingResistantOnly ?? tenant.phishingResistantOnly);
              }),
            ),
          );
        const patches = show({ requiredTwoModeAuthentification: enable, phishingResistantOnly });
        try {
          const { data } = await queryFulfilled;
          show(data);
        } catch {
          for (const patch of patches) patch.undo();
        }
      },
      // The tenant's own page shows the flag too.
      invalidatesTags: (_result, error, { id }) => (error ? [] : [{ type: 'Tenant', id }]),
    }),
  }),
});

export const { useMfaTenantsQuery, useSetTwoModeAuthMutation } = mfaApi;
