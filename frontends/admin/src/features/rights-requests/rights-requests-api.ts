import type { RightsRequestDetail, RightsRequestFile, RightsRequestList, RightsRequestSummary, rightsRequestsRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { adminApi, downloadFile, toQueryString, type ListQuery } from '../../api/admin-api';

export type { RightsRequestDetail, RightsRequestFile, RightsRequestSummary };

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const LIST: typeof rightsRequestsRoutes.list.path = '/api/v1/admin/rightsRequests';
const ONE: typeof rightsRequestsRoutes.get.path = '/api/v1/admin/rightsRequests/:id';
const FILE: typeof rightsRequestsRoutes.file.path = '/api/v1/admin/rightsRequests/:id/files/:fileId';

export const rightsRequestsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    rightsRequests: build.query<RightsRequestList, ListQuery>({
      query: (query) => `${LIST}${toQueryString(query)}`,
    }),
    rightsRequest: build.query<RightsRequestDetail, string>({
      query: (id) => pathOf({ path: ONE }, { id }),
    }),
  }),
});

export const { useRightsRequestsQuery, useRightsRequestQuery } = rightsRequestsApi;

/** Saves one identification document of a request under its own name. */
export function downloadRightsDocument(requestId: string, file: RightsRequestFile): Promise<void> {
  return downloadFile(pathOf({ path: FILE }, { id: requestId, fileId: file.id }), file.fileName);
}
