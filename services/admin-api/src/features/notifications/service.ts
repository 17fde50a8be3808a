import { AppError, type AppContext } from '@gatehouse/core';
import {
  ACTIVE_TASKS_TAKE,
  type activeTaskListSchema,
  type activeTaskSchema,
  type markedNotificationsSchema,
  type notificationListSchema,
  type notificationsRoutes,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { presentNotification } from './notify.js';
import { deleteNotification, deleteNotifications, listActiveTasks, listNotifications, markNotificationsRead } from './repository.js';

type ActiveQuery = z.output<typeof notificationsRoutes.active.query>;
type MarkRead = z.output<typeof notificationsRoutes.markRead.body>;
type NotificationList = z.input<typeof notificationListSchema>;
type Marked = z.input<typeof markedNotificationsSchema>;
type ActiveTasks = z.input<typeof activeTaskListSchema>;
type Task = z.input<typeof activeTaskSchema>;

/** The caller's own notifications and background processes: nobody reads or changes another user's. */
export class NotificationsService {
  constructor(private readonly context: AppContext) {}

  private get db() {
    return this.context.dataSource;
  }

  /** The caller's newest notifications in `language` (the reader's), with their total and the unread count (the badge). */
  async active(caller: Caller, query: ActiveQuery, language: string): Promise<NotificationList> {
    const { rows, count, unread } = await listNotifications(this.db, caller.userId, query.top);
    return { items: rows.map((row) => presentNotification(row, { context: this.context, language })), count, unread };
  }

  /**
   * Marks read those of `ids` that are the caller's, or all the caller's: the console names the
   * ones it shows, so one that arrives meanwhile stays unread.
   */
  markRead(caller: Caller, body: MarkRead): Promise<Marked> {
    return markNotificationsRead(this.db, caller.userId, body.ids ?? null);
  }

  /** Deletes one of the caller's notifications; another user's is the same 404 as an unknown one. */
  async remove(caller: Caller, id: string): Promise<void> {
    if (!(await deleteNotification(this.db, caller.userId, id))) throw new AppError('errors.not_found', 404);
  }

  /** Deletes every notification of the caller's. */
  async removeAll(caller: Caller): Promise<void> {
    await deleteNotifications(this.db, caller.userId);
  }

  /** The caller's processes that have not finished, newest start first. */
  async activeTasks(caller: Caller): Promise<ActiveTasks> {
    const rows = await listActiveTasks(this.db, caller.userId, ACTIVE_TASKS_TAKE);
    const items = rows.map((row) => ({
      id: row.id,
      // The table's checks keep both to the declared values.
      type: row.type as Task['type'],
      status: row.status as Task['status'],
      startTime: row.start_time,
      progress: row.progress,
      total: row.total,
    }));
    return { items, count: items.length };
  }
}
