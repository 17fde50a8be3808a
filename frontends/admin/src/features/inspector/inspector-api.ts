import type { InspectTokenBody, TokenInspection, inspectorRoutes } from '@gatehouse/contracts';
import { adminApi } from '../../api/admin-api';

export type { TokenInspection };
export type InspectedRoleGroup = TokenInspection['effectiveRoles'][number];

// The contract's path, written out so that the bundle carries no schema; its type keeps it equal.
const INSPECT: typeof inspectorRoutes.inspect.path = '/api/v1/admin/inspector';

export const inspectorApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    // A mutation, not a query: the token travels in a POST body, never in a URL, and nothing is cached under it.
    inspectToken: build.mutation<TokenInspection, InspectTokenBody>({
      query: (body) => ({ url: INSPECT, method: 'POST', body }),
    }),
  }),
});

export const { useInspectTokenMutation } = inspectorApi;
