import { z } from 'zod';
import { RIGHTS, RIGHTS_REQUEST_TYPES } from '../domain.js';
import { idParams, idSchema, listPage, listQuery } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { timestampSchema } from './users.js';

const RIGHTS_REQUESTS = '/api/v1/admin/rightsRequests';

/** A rights request as the list shows it. */
export const rightsRequestSummarySchema = z.object({
  id: z.string(),
  /** When the request was received. */
  createdAt: timestampSchema,
  /** The date the requester gave, `YYYY-MM-DD`. */
  requestDate: z.string(),
  fullName: z.string(),
  email: z.string(),
  requestType: z.enum(RIGHTS_REQUEST_TYPES),
  rights: z.array(z.enum(RIGHTS)),
  /** The account that sent it (null once that account is deleted). */
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  fileCount: z.number().int(),
});
export type RightsRequestSummary = z.output<typeof rightsRequestSummarySchema>;

export const rightsRequestFileSchema = z.object({ id: z.string(), fileName: z.string(), contentType: z.string(), size: z.number().int() });
export type RightsRequestFile = z.output<typeof rightsRequestFileSchema>;

/** One request with its texts and the names of its documents. */
export const rightsRequestDetailSchema = rightsRequestSummarySchema.extend({
  representativeData: z.string().nullable(),
  requestDetails: z.string().nullable(),
  files: z.array(rightsRequestFileSchema),
});
export type RightsRequestDetail = z.output<typeof rightsRequestDetailSchema>;

export const rightsRequestListSchema = listPage(rightsRequestSummarySchema);
export type RightsRequestList = z.output<typeof rightsRequestListSchema>;

export const RIGHTS_REQUEST_SORT_FIELDS = ['createdAt', 'requestDate', 'fullName', 'email'] as const;

/** `/api/v1/admin/rightsRequests`: the data-protection rights requests sent from the portal. */
export const rightsRequestsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: RIGHTS_REQUESTS,
    endpoint: 'rightsRequests.list',
    access: 'roles',
    summary: 'Lists the data-protection rights requests, newest first; $search matches the name or the e-mail',
    query: listQuery({ sortable: RIGHTS_REQUEST_SORT_FIELDS, defaultOrder: 'createdAt desc' }),
    response: rightsRequestListSchema,
  }),
  get: defineRoute({
    method: 'GET',
    path: `${RIGHTS_REQUESTS}/:id`,
    endpoint: 'rightsRequests.get',
    access: 'roles',
    summary: 'One rights request, with the names of its identification documents',
    params: idParams,
    response: rightsRequestDetailSchema,
  }),
  file: defineRoute({
    method: 'GET',
    path: `${RIGHTS_REQUESTS}/:id/files/:fileId`,
    endpoint: 'rightsRequests.file',
    access: 'roles',
    summary: 'Downloads one identification document of a rights request, as an attachment',
    params: z.object({ id: idSchema, fileId: idSchema }),
    produces: 'application/octet-stream',
  }),
} satisfies Record<string, RouteContract>;
