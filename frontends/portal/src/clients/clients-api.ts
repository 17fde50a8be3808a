import type {
  AreaList,
  ClientTenant,
  ClientUser,
  ClientUserBody,
  IdentityPermissions,
  OperationRequest,
  OperationRequestBody,
  clientsRoutes,
  operationRequestsRoutes,
} from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { portalApi } from '../api/portal-api';

export type { ClientTenant, ClientUser, ClientUserBody, IdentityPermissions, OperationRequest };

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const TENANTS: typeof clientsRoutes.tenants.path = '/api/v1/admin/clients/tenants';
const USERS: typeof clientsRoutes.users.path = '/api/v1/admin/clients/:tenantId/users';
const USER: typeof clientsRoutes.update.path = '/api/v1/admin/clients/:tenantId/users/:id';
const INVITE: typeof clientsRoutes.invite.path = '/api/v1/admin/clients/:tenantId/users/:id/invite';
const AREAS: typeof clientsRoutes.areas.path = '/api/v1/admin/clients/areas';
const REQUESTS: typeof operationRequestsRoutes.list.path = '/api/v1/admin/operationRequests';
const PERMISSIONS: typeof operationRequestsRoutes.permissions.path = '/api/v1/admin/operationRequests/permissions';
const EDIT: typeof operationRequestsRoutes.edit.path = '/api/v1/admin/operationRequests/permissions/:id';
const APPROVE: typeof operationRequestsRoutes.approve.path = '/api/v1/admin/operationRequests/approve/:id';
const REJECT: typeof operationRequestsRoutes.reject.path = '/api/v1/admin/operationRequests/reject/:id';
const CANCEL: typeof operationRequestsRoutes.cancel.path = '/api/v1/admin/operationRequests/cancel/:id';
const APPROVE_BULK: typeof operationRequestsRoutes.approveInBulk.path = '/api/v1/admin/operationRequests/approveInBulk';
const REJECT_BULK: typeof operationRequestsRoutes.rejectInBulk.path = '/api/v1/admin/operationRequests/rejectInBulk';
const HISTORY: typeof operationRequestsRoutes.history.path = '/api/v1/admin/operationRequests/history/:id';

/** A page of a list as the admin API answers it. */
export interface Page<T> {
  items: T[];
  count: number;
}

export interface TenantSearch {
  searchQuery?: string;
  take: number;
}

export interface ClientUsersArgs {
  tenantId: string;
  userType?: 1 | 2;
  skip: number;
  take: number;
}

export interface RequestsArgs {
  tenantId: string;
  status?: OperationRequest['status'];
  skip: number;
  take: number;
}

export interface HistoryEntry {
  id: string;
  email: string | null;
  date: string;
  requestType: string;
  status: OperationRequest['status'];
}

export interface BulkOutcome {
  items: { id: string; status?: OperationRequest['status']; error?: { code: string; message: string } }[];
}

/** The query string of a list call, leaving out what is not set. */
export function queryString(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const clientsApi = portalApi.enhanceEndpoints({ addTagTypes: ['ClientUser', 'OperationRequest'] }).injectEndpoints({
  endpoints: (build) => ({
    clientTenants: build.query<Page<ClientTenant>, TenantSearch>({
      query: ({ searchQuery, take }) => `${TENANTS}${queryString({ searchQuery: searchQuery?.trim(), skip: 0, take, orderBy: 'title asc' })}`,
    }),
    clientUsers: build.query<Page<ClientUser>, ClientUsersArgs>({
      query: ({ tenantId, userType, skip, take }) => `${pathOf({ path: USERS }, { tenantId })}${queryString({ userType, skip, take })}`,
      providesTags: ['ClientUser'],
    }),
    createClientUser: build.mutation<ClientUser, { tenantId: string; body: ClientUserBody }>({
      query: ({ tenantId, body }) => ({ url: pathOf({ path: USERS }, { tenantId }), method: 'POST', body }),
      invalidatesTags: ['ClientUser'],
    }),
    updateClientUser: build.mutation<ClientUser, { tenantId: string; id: string; body: ClientUserBody }>({
      query: ({ tenantId, id, body }) => ({ url: pathOf({ path: USER }, { tenantId, id }), method: 'PUT', body }),
      invalidatesTags: ['ClientUser'],
    }),
    inviteClientUser: build.mutation<unknown, { tenantId: string; id: string }>({
      query: ({ tenantId, id }) => ({ url: pathOf({ path: INVITE }, { tenantId, id }), method: 'POST' }),
    }),
    clientAreas: build.query<AreaList, void>({
      query: () => AREAS,
    }),
    operationRequests: build.query<Page<OperationRequest>, RequestsArgs>({
      query: ({ tenantId, status, skip, take }) => `${REQUESTS}${queryString({ tenantId, status, skip, take })}`,
      providesTags: ['OperationRequest'],
    }),
    identityPermissions: build.query<IdentityPermissions, { identityId: string; tenantId: string }>({
      query: ({ identityId, tenantId }) => `${PERMISSIONS}${queryString({ identityId, tenantId, isGroup: false })}`,
      keepUnusedDataFor: 0,
    }),
    requestPermissions: build.mutation<OperationRequest, OperationRequestBody>({
      query: (body) => ({ url: REQUESTS, method: 'POST', body }),
      invalidatesTags: ['OperationRequest', 'ClientUser'],
    }),
    editRequest: build.mutation<OperationRequest, { id: string; roles: string[]; isInheritable: boolean }>({
      query: ({ id, ...body }) => ({ url: pathOf({ path: EDIT }, { id }), method: 'PUT', body }),
      invalidatesTags: ['OperationRequest', 'ClientUser'],
    }),
    /** Approves the request as the version the approver saw. */
    approveRequest: build.mutation<OperationRequest, Pick<OperationRequest, 'id' | 'version'>>({
      query: ({ id, version }) => ({ url: pathOf({ path: APPROVE }, { id }), method: 'POST', body: { version } }),
      invalidatesTags: ['OperationRequest', 'ClientUser'],
    }),
    rejectRequest: build.mutation<OperationRequest, string>({
      query: (id) => ({ url: pathOf({ path: REJECT }, { id }), method: 'POST', body: {} }),
      invalidatesTags: ['OperationRequest', 'ClientUser'],
    }),
    cancelRequest: build.mutation<OperationRequest, string>({
      query: (id) => ({ url: pathOf({ path: CANCEL }, { id }), method: 'POST' }),
      invalidatesTags: ['OperationRequest', 'ClientUser'],
    }),
    approveRequests: build.mutation<BulkOutcome, Array<Pick<OperationRequest, 'id' | 'version'>>>({
      query: (requests) => ({
        url: APPROVE_BULK,
        method: 'POST',
        body: { ids: requests.map((request) => request.id), versions: Object.fromEntries(requests.map((request) => [request.id, request.version])) },
      }),
      invalidatesTags: ['OperationRequest', 'ClientUser'],
    }),
    rejectRequests: build.mutation<BulkOutcome, string[]>({
      query: (ids) => ({ url: REJECT_BULK, method: 'POST', body: { ids } }),
      invalidatesTags: ['OperationRequest', 'ClientUser'],
    }),
    requestHistory: build.query<{ items: HistoryEntry[] }, string>({
      query: (id) => pathOf({ path: HISTORY }, { id }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useClientTenantsQuery,
  useClientUsersQuery,
  useCreateClientUserMutation,
  useUpdateClientUserMutation,
  useInviteClientUserMutation,
  useClientAreasQuery,
  useOperationRequestsQuery,
  useLazyIdentityPermissionsQuery,
  useRequestPermissionsMutation,
  useEditRequestMutation,
  useApproveRequestMutation,
  useRejectRequestMutation,
  useCancelRequestMutation,
  useApproveRequestsMutation,
  useRejectRequestsMutation,
  useRequestHistoryQuery,
} = clientsApi;
