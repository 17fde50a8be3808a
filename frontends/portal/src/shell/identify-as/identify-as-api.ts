import type { LoginResponse, identifyAsRoutes } from '@gatehouse/contracts';
import { portalApi } from '../../api/portal-api';

// The contract's path, written out so that the bundle carries no schema; its type keeps them equal.
const END: typeof identifyAsRoutes.end.path = '/api/v1/account/identifyAs/end';

export const identifyAsApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    // `POST …/identifyAs/end`: ends signing in as another user; `redirectTo` says where to go next.
    endIdentifyAs: build.mutation<LoginResponse, void>({
      query: () => ({ url: END, method: 'POST', body: {} }),
    }),
  }),
});

export const { useEndIdentifyAsMutation } = identifyAsApi;
