import { z } from 'zod';
import { JOB_STATUSES, JOB_TYPES } from '../domain.js';
import { idParams, idSchema, listPage } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';
import { rowMessageSchema } from './imports.js';
import { timestampSchema } from './users.js';

const NOTIFICATIONS = '/api/v1/admin/notifications';

/** The flyout lists at most this many notifications, newest first (spec 7: take 100). */
export const NOTIFICATIONS_TAKE = 100;
/** The running processes listed at most (spec 7: take 25, newest start first). */
export const ACTIVE_TASKS_TAKE = 25;

/** Where the live notification hub listens, on the product's own origin. */
export const NOTIFICATIONS_HUB_PATH = '/hubs/notifications';

/** The events the hub sends to a connected console. */
export const NOTIFICATION_HUB_EVENTS = {
  /** Right after the connection is accepted: `{ connectionId }`. */
  beginConnection: 'BeginConnection',
  /** A notification for the connected user: the {@link UserNotification} as the list shows it. */
  newNotification: 'NewNotification',
  /** A background process of the connected user started or moved on: the {@link ActiveTask}. */
  newProcess: 'NewProcess',
} as const;

/** Notification types the product writes; others (finished jobs) carry the job's type. */
export const NOTIFICATION_TYPES = ['PermissionAssigned', 'OperationRequest', 'WebhookDisabled', ...JOB_TYPES] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * What a notification may carry besides its text (spec 3): the outcome of an import, whose errors
 * and warnings the flyout counts and opens ("Open Result"), or a failure's message (a banner).
 */
export const notificationDataSchema = z.object({
  success: z.boolean().optional(),
  totalElements: z.number().int().optional(),
  importedElements: z.number().int().optional(),
  errors: z.array(rowMessageSchema).optional(),
  warnings: z.array(rowMessageSchema).optional(),
  messageError: z.string().optional(),
  /** A file the job produced: the id to download through filestorage/downloadExcel. */
  fileUrl: z.string().optional(),
});
export type NotificationData = z.output<typeof notificationDataSchema>;

/** One notification of the caller's. */
export const notificationSchema = z.object({
  id: z.string(),
  /** PermissionAssigned, or the type of the background job it reports on. */
  type: z.string(),
  description: z.string().nullable(),
  /** Read: the flyout has been opened since it came (spec's `readed`). */
  readed: z.boolean(),
  data: notificationDataSchema.nullable(),
  userId: z.string(),
  creationTime: timestampSchema,
});
export type UserNotification = z.output<typeof notificationSchema>;

/** The flyout's list: the newest notifications, how many there are in all and how many are unread. */
export const notificationListSchema = listPage(notificationSchema).extend({
  /** The caller's unread notifications in all (the badge). */
  unread: z.number().int().min(0),
});
export type NotificationList = z.output<typeof notificationListSchema>;

/** Body of `PUT /notifications`: these ids of the caller's, or (none given) all of them. */
export const markNotificationsReadSchema = z.strictObject({
  ids: z.array(idSchema).min(1).max(NOTIFICATIONS_TAKE).optional(),
});
export type MarkNotificationsRead = z.input<typeof markNotificationsReadSchema>;

/** The answer to a mark-read: how many became read, and how many are still unread. */
export const markedNotificationsSchema = z.object({ marked: z.number().int().min(0), unread: z.number().int().min(0) });
export type MarkedNotifications = z.output<typeof markedNotificationsSchema>;

/** A background process of the caller's that has not finished (queued or running). */
export const activeTaskSchema = z.object({
  id: z.string(),
  type: z.enum(JOB_TYPES),
  status: z.enum(JOB_STATUSES),
  /** When it started; when it is still queued, when it was asked for. */
  startTime: timestampSchema,
  progress: z.number().int(),
  total: z.number().int().nullable(),
});
export type ActiveTask = z.output<typeof activeTaskSchema>;

export const activeTaskListSchema = listPage(activeTaskSchema);
export type ActiveTaskList = z.output<typeof activeTaskListSchema>;

/** `/api/v1/admin/notifications` and `/api/v1/admin/tasks`: the caller's own notifications and processes. */
export const notificationsRoutes = {
  active: defineRoute({
    method: 'GET',
    path: `${NOTIFICATIONS}/active`,
    endpoint: 'notifications.active',
    access: 'signed-in',
    summary: `The caller's notifications, newest first (at most ${NOTIFICATIONS_TAKE}), with their total and the unread count`,
    query: z.object({ top: z.coerce.number().int().min(1).max(NOTIFICATIONS_TAKE).default(NOTIFICATIONS_TAKE) }),
    response: notificationListSchema,
  }),
  markRead: defineRoute({
    method: 'PUT',
    path: NOTIFICATIONS,
    endpoint: 'notifications.markRead',
    access: 'signed-in',
    summary: "Marks the caller's notifications read: those named by `ids` (others' ids are ignored), or all of them",
    body: markNotificationsReadSchema,
    response: markedNotificationsSchema,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: `${NOTIFICATIONS}/:id`,
    endpoint: 'notifications.delete',
    access: 'signed-in',
    summary: "Deletes one of the caller's notifications (another user's is not found)",
    params: idParams,
  }),
  deleteAll: defineRoute({
    method: 'DELETE',
    path: NOTIFICATIONS,
    endpoint: 'notifications.deleteAll',
    access: 'signed-in',
    summary: "Deletes every notification of the caller's",
  }),
  activeTasks: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/tasks/active',
    endpoint: 'tasks.active',
    access: 'signed-in',
    summary: `The caller's background processes that have not finished, newest start first (at most ${ACTIVE_TASKS_TAKE})`,
    response: activeTaskListSchema,
  }),
} satisfies Record<string, RouteContract>;
