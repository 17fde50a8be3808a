import type { ActiveTaskList, MarkedNotifications, MarkNotificationsRead, NotificationList, notificationsRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { adminApi } from '../../api/admin-api';

export type { ActiveTask, NotificationData, UserNotification } from '@gatehouse/contracts';

type Routes = typeof notificationsRoutes;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const ACTIVE: Routes['active']['path'] = '/api/v1/admin/notifications/active';
const NOTIFICATIONS: Routes['markRead']['path'] = '/api/v1/admin/notifications';
const ONE: Routes['delete']['path'] = '/api/v1/admin/notifications/:id';
const TASKS: Routes['activeTasks']['path'] = '/api/v1/admin/tasks/active';

const LIST_TAG = { type: 'Notification' as const, id: 'LIST' };

export const notificationsApi = adminApi.enhanceEndpoints({ addTagTypes: ['Notification', 'Task'] }).injectEndpoints({
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
    /** The caller's processes that have not finished (newest 25). */
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
