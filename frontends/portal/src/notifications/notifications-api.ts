import type {
  ActiveTaskList,
  MarkedNotifications,
  MarkNotificationsRead,
  NotificationList,
  fileStorageRoutes,
  notificationsRoutes,
} from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { ApiError, apiErrorMessage, authorizedFetch, readErrorBody, type ApiDependencies } from '@gatehouse/frontend-shared';
import type { TFunction } from 'i18next';
import { portalApi } from '../api/portal-api';
import { fileNameOf, saveFile } from '../profile/my-data/download';

export type { ActiveTask, NotificationData, UserNotification } from '@gatehouse/contracts';

type Routes = typeof notificationsRoutes;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const ACTIVE: Routes['active']['path'] = '/api/v1/admin/notifications/active';
const NOTIFICATIONS: Routes['markRead']['path'] = '/api/v1/admin/notifications';
const ONE: Routes['delete']['path'] = '/api/v1/admin/notifications/:id';
const TASKS: Routes['activeTasks']['path'] = '/api/v1/admin/tasks/active';
const FILE: typeof fileStorageRoutes.downloadExcel.path = '/api/v1/admin/filestorage/downloadExcel';

const LIST_TAG = { type: 'Notification' as const, id: 'LIST' };

/** The caller's own notifications and running processes, with the portal's session token. */
export const notificationsApi = portalApi.enhanceEndpoints({ addTagTypes: ['Notification', 'Task'] }).injectEndpoints({
  endpoints: (build) => ({
    /** The newest 100, with the unread count (the badge). */
    activeNotifications: build.query<NotificationList, void>({
      query: () => ACTIVE,
      providesTags: [LIST_TAG],
    }),
    markNotificationsRead: build.mutation<MarkedNotifications, MarkNotificationsRead>({
      query: (body) => ({ url: NOTIFICATIONS, method: 'PUT', body }),
      invalidatesTags: [LIST_TAG],
    }),
    deleteNotification: build.mutation<void, string>({
      query: (id) => ({ url: pathOf({ path: ONE }, { id }), method: 'DELETE' }),
      invalidatesTags: [LIST_TAG],
    }),
    deleteAllNotifications: build.mutation<void, void>({
      query: () => ({ url: NOTIFICATIONS, method: 'DELETE' }),
      invalidatesTags: [LIST_TAG],
    }),
    /** The caller's background processes that have not finished (newest 25). */
    activeTasks: build.query<ActiveTaskList, void>({
      query: () => TASKS,
      providesTags: [{ type: 'Task', id: 'LIST' }],
    }),
  }),
});

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
