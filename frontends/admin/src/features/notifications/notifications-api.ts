import { NOTIFICATION_TAG_TYPES, notificationEndpoints } from '@gatehouse/frontend-shared';
import { adminApi } from '../../api/admin-api';

export type { ActiveTask, NotificationData, UserNotification } from '@gatehouse/contracts';

export const notificationsApi = adminApi.enhanceEndpoints({ addTagTypes: NOTIFICATION_TAG_TYPES }).injectEndpoints({ endpoints: notificationEndpoints });

export const {
  useActiveNotificationsQuery,
  useMarkNotificationsReadMutation,
  useDeleteNotificationMutation,
  useDeleteAllNotificationsMutation,
  useActiveTasksQuery,
} = notificationsApi;
