import type { ActiveTaskList, MarkedNotifications, MarkNotificationsRead, NotificationList, notificationsRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import type { EndpointBuilder } from '@reduxjs/toolkit/query/react';
import type { authorizedBaseQuery } from './authorized-base-query';

type Routes = typeof notificationsRoutes;

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const ACTIVE: Routes['active']['path'] = '/api/v1/admin/notifications/active';
const NOTIFICATIONS: Routes['markRead']['path'] = '/api/v1/admin/notifications';
const ONE: Routes['delete']['path'] = '/api/v1/admin/notifications/:id';
const TASKS: Routes['activeTasks']['path'] = '/api/v1/admin/tasks/active';

/** The tags the notification endpoints provide and invalidate; the API they join adds them. */
export const NOTIFICATION_TAG_TYPES = ['Notification', 'Task'] as const;
type NotificationTag = (typeof NOTIFICATION_TAG_TYPES)[number];

const LIST_TAG = { type: 'Notification' as const, id: 'LIST' };

/**
 * The caller's own notifications and running processes, as the console and the portal both ask
 * for them: each injects these endpoints into its own API (its own token and store).
 */
export function notificationEndpoints<Tag extends string, Path extends string>(build: EndpointBuilder<typeof authorizedBaseQuery, Tag | NotificationTag, Path>) {
  return {
    /**
     * The newest 100, with the unread count (the badge), written by the server in the interface's
     * language: the argument, so that another language asks again.
     */
    activeNotifications: build.query<NotificationList, string>({
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
  };
}
