import { z } from 'zod';
import { idSchema } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { backgroundJobStartedSchema } from './dashboard.js';

/** The media type of the templates. */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const PROFILE = '/api/v1/profile';

/**
 * The paths of the bulk operation requests, under the profile API's prefix as the spec names them,
 * though the administration API serves them (they run as its background jobs): whatever routes
 * requests by path sends these prefixes to it.
 */
export const BULK_OPERATION_REQUEST_PREFIXES = [
  `${PROFILE}/template/operationRequests`,
  `${PROFILE}/template/fullUserWithOperationRequest`,
  `${PROFILE}/bulk_insert/operationRequests`,
  `${PROFILE}/full_bulk_insert/operationRequests`,
] as const;

/** The two kinds of bulk upload of My Clients: requests for existing users, or new users with their requests. */
export const BULK_REQUEST_KINDS = ['requests', 'fullUsers'] as const;
export type BulkRequestKind = (typeof BULK_REQUEST_KINDS)[number];

/**
 * The columns of each template, in order (their headers are written in the caller's language and
 * read in any of the product's). Layout: one row per user and role; the rows of one user (the same
 * e-mail) make one operation request in the upload's tenant, for the roles the user already holds
 * there (own) plus the rows' roles, so an approved bulk request only adds. In the full template the
 * user's details (first name, last name, language, area and the optional ones) are read from the
 * first row of the e-mail that gives them; a user who already exists is reused as they are.
 */
export const BULK_REQUEST_COLUMNS = {
  requests: ['email', 'application', 'role'],
  fullUsers: ['email', 'firstName', 'lastName', 'language', 'area', 'phoneNumber', 'jobTitle', 'manager', 'teams', 'application', 'role'],
} as const satisfies Record<BulkRequestKind, readonly string[]>;
export type BulkRequestColumn = (typeof BULK_REQUEST_COLUMNS)[BulkRequestKind][number];

/** The file name each template is downloaded as. */
export const BULK_REQUEST_TEMPLATE_FILES: Record<BulkRequestKind, string> = {
  requests: 'OperationRequestsTemplate.xlsx',
  fullUsers: 'FullUserWithOperationRequestTemplate.xlsx',
};

export const bulkRequestParams = z.object({ tenantId: idSchema });

/**
 * My Clients' bulk uploads (the portal's "bulk-upload options"): a template to fill in, and the
 * upload of a filled one for a tenant, checked at once and turned into operation requests in the
 * background (never approved by the upload itself); the result comes as a notification.
 */
export const bulkOperationRequestsRoutes = {
  template: defineRoute({
    method: 'GET',
    path: `${PROFILE}/template/operationRequests`,
    endpoint: 'operationRequests.bulkTemplate',
    access: 'roles',
    summary: 'Downloads the Excel template of access requests for existing users: one row per e-mail and role (application, role), with the requestable roles on a second sheet',
    produces: XLSX,
  }),
  fullTemplate: defineRoute({
    method: 'GET',
    path: `${PROFILE}/template/fullUserWithOperationRequest`,
    endpoint: 'operationRequests.fullBulkTemplate',
    access: 'roles',
    summary: 'Downloads the Excel template of new users with their access requests: the user’s details on the first row of each e-mail, one row per role',
    produces: XLSX,
  }),
  bulkInsert: defineRoute({
    method: 'POST',
    path: `${PROFILE}/bulk_insert/operationRequests/:tenantId`,
    endpoint: 'operationRequests.bulkInsert',
    access: 'roles',
    summary:
      'Queues access requests for existing users in the tenant from an uploaded Excel file (multipart field `file`) as a background job; 404 outside the tenants the caller consults for; the result comes as a notification',
    params: bulkRequestParams,
    consumes: 'multipart/form-data',
    status: 202,
    response: backgroundJobStartedSchema,
  }),
  fullBulkInsert: defineRoute({
    method: 'POST',
    path: `${PROFILE}/full_bulk_insert/operationRequests/:tenantId`,
    endpoint: 'operationRequests.fullBulkInsert',
    access: 'roles',
    summary:
      'Queues new users (pending approval, with the My Clients rules) and their access requests in the tenant from an uploaded Excel file (multipart field `file`) as a background job; existing users are reused; 404 outside the tenants the caller consults for',
    params: bulkRequestParams,
    consumes: 'multipart/form-data',
    status: 202,
    response: backgroundJobStartedSchema,
  }),
} satisfies Record<string, RouteContract>;
