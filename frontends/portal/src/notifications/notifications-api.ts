import type { fileStorageRoutes } from '@gatehouse/contracts';
import { ApiError, NOTIFICATION_TAG_TYPES, apiErrorMessage, authorizedFetch, notificationEndpoints, readErrorBody, type ApiDependencies } from '@gatehouse/frontend-shared';
import type { TFunction } from 'i18next';
import { portalApi } from '../api/portal-api';
import { fileNameOf, saveFile } from '../profile/my-data/download';

export type { ActiveTask, NotificationData, UserNotification } from '@gatehouse/contracts';

// The contract's path, written out so that the bundle carries no schema; its type keeps them equal.
const FILE: typeof fileStorageRoutes.downloadExcel.path = '/api/v1/admin/filestorage/downloadExcel';

/** The caller's own notifications and running processes, with the portal's session token. */
export const notificationsApi = portalApi.enhanceEndpoints({ addTagTypes: NOTIFICATION_TAG_TYPES }).injectEndpoints({ endpoints: notificationEndpoints });

export const {
  useActiveNotificationsQuery,
  useMarkNotificationsReadMutation,
  useDeleteNotificationMutation,
  useDeleteAllNotificationsMutation,
  useActiveTasksQuery,
} = notificationsApi;

/**
 * Downloads a file a background job of the user's produced (`data.fileUrl` holds its id) and saves
 * it under the server's name, else `fallbackName`. A refusal rejects with an ApiError carrying the
 * server's message in the user's language: for a 404 too, which tells an expired file from one
 * that is gone, where the generic 'Not found' would not.
 */
export async function downloadResultFile(dependencies: ApiDependencies, fileId: string, fallbackName: string, t: TFunction<'translation'>): Promise<void> {
  const response = await authorizedFetch(dependencies, `${FILE}?${new URLSearchParams({ url: fileId })}`);
  if (!response.ok) {
    const body = await readErrorBody(response);
    const message = body.message?.trim() ? body.message : apiErrorMessage(response.status, body, t);
    throw new ApiError(response.status, message, body.code);
  }
  saveFile(await response.blob(), fileNameOf(response, fallbackName));
}
