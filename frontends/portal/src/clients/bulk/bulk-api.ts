import type { BackgroundJobStarted, BulkRequestKind, bulkOperationRequestsRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { ApiError, apiErrorMessage, authorizedFetch, readErrorBody, type ApiDependencies } from '@gatehouse/frontend-shared';
import type { TFunction } from 'i18next';
import { fileNameOf, saveFile } from '../../profile/my-data/download';

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const TEMPLATE: typeof bulkOperationRequestsRoutes.template.path = '/api/v1/profile/template/operationRequests';
const FULL_TEMPLATE: typeof bulkOperationRequestsRoutes.fullTemplate.path = '/api/v1/profile/template/fullUserWithOperationRequest';
const BULK_INSERT: typeof bulkOperationRequestsRoutes.bulkInsert.path = '/api/v1/profile/bulk_insert/operationRequests/:tenantId';
const FULL_BULK_INSERT: typeof bulkOperationRequestsRoutes.fullBulkInsert.path = '/api/v1/profile/full_bulk_insert/operationRequests/:tenantId';

/** The only file type the uploads read. */
export const BULK_EXTENSION = '.xlsx';

/** A bulk option of My Clients (spec 3): its label, its template's name and address, and where a filled one is uploaded. */
export interface BulkOption {
  kind: BulkRequestKind;
  /** The label's key in the portal's phrases. */
  label: 'clientsBulk.requests' | 'clientsBulk.fullUsers';
  /** The name the template is saved under when the server gives none. */
  templateName: string;
  templateUrl: string;
  uploadUrl: (tenantId: string) => string;
}

export const BULK_OPTIONS: readonly BulkOption[] = [
  {
    kind: 'requests',
    label: 'clientsBulk.requests',
    templateName: 'OperationRequestsTemplate.xlsx',
    templateUrl: TEMPLATE,
    uploadUrl: (tenantId) => pathOf({ path: BULK_INSERT }, { tenantId }),
  },
  {
    kind: 'fullUsers',
    label: 'clientsBulk.fullUsers',
    templateName: 'FullUserWithOperationRequestTemplate.xlsx',
    templateUrl: FULL_TEMPLATE,
    uploadUrl: (tenantId) => pathOf({ path: FULL_BULK_INSERT }, { tenantId }),
  },
];

/** The refusal of a call, as an ApiError carrying the message to show (the server's, in the request's language). */
async function refusal(response: Response, t: TFunction<'translation'>): Promise<ApiError> {
  const body = await readErrorBody(response);
  return new ApiError(response.status, apiErrorMessage(response.status, body, t), body.code);
}

/** Downloads an option's template (headers in the user's language) and saves it under the server's name. */
export async function downloadTemplate(dependencies: ApiDependencies, option: BulkOption, t: TFunction<'translation'>): Promise<void> {
  const response = await authorizedFetch(dependencies, option.templateUrl);
  if (!response.ok) throw await refusal(response, t);
  saveFile(await response.blob(), fileNameOf(response, option.templateName));
}

/**
 * Uploads a filled template for the tenant (multipart field `file`). The server checks it at once
 * and answers the background job that will turn it into operation requests.
 */
export async function uploadBulkFile(dependencies: ApiDependencies, option: BulkOption, tenantId: string, file: File, t: TFunction<'translation'>): Promise<BackgroundJobStarted> {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await authorizedFetch(dependencies, option.uploadUrl(tenantId), { method: 'POST', body: form });
  if (!response.ok) throw await refusal(response, t);
  return (await response.json()) as BackgroundJobStarted;
}
