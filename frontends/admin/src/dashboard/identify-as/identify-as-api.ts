import { pathOf, type IdentifyAsEnabled, type IdentifyAsStarted, type dashboardRoutes } from '@gatehouse/contracts';
import { adminApi } from '../../api/admin-api';

type Routes = typeof dashboardRoutes;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const ENABLED: Routes['identifyAsEnabled']['path'] = '/api/v1/admin/dashboard/identyfyasEnabled';
const START: Routes['identifyAs']['path'] = '/api/v1/admin/dashboard/identifyAs/:id';

export const identifyAsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    // `GET …/identyfyasEnabled`: whether the tile is offered (God, where the deployment allows it).
    identifyAsEnabled: build.query<IdentifyAsEnabled, void>({
      query: () => ENABLED,
    }),
    // `POST …/identifyAs/{id}`: the identity provider's one-time link that signs this browser in as the user.
    identifyAs: build.mutation<IdentifyAsStarted, string>({
      query: (id) => ({ url: pathOf({ path: START }, { id }), method: 'POST', body: {} }),
    }),
  }),
});

export const { useIdentifyAsEnabledQuery, useIdentifyAsMutation } = identifyAsApi;
