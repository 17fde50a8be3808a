import type { AppContext } from '@gatehouse/core';
import {
  NOTIFICATION_HUB_EVENTS,
  activeTaskSchema,
  notificationDataSchema,
  notificationSchema,
  type ActiveTask,
  type NotificationData,
  type UserNotification,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import { insertNotification, type NotificationRow } from './repository.js';

/** What reaches a user's open consoles: on this node, and through the hub's adapter on the others. */
export interface HubEmitter {
  emitToUser(userId: string, event: string, payload: unknown): void;
}

const hubs = new WeakMap<AppContext, HubEmitter>();

/**
 * Makes `hub` the one through which this context's notifications are pushed; answers the function
 * that stops it. One hub per context: with a shared adapter one emit already reaches every node.
 */
export function registerHub(context: AppContext, hub: HubEmitter): () => void {
  if (hubs.has(context)) throw new Error('a notification hub is already attached to this context');
  hubs.set(context, hub);
  return () => {
    if (hubs.get(context) === hub) hubs.delete(context);
  };
}

/** A notification as the list and the hub present it (times as Dates, written out by the schema). */
export function presentNotification(row: NotificationRow): z.input<typeof notificationSchema> {
  // Whatever else a row's data holds (written by an older version, say) is not the console's.
  const data = row.data === null || row.data === undefined ? null : notificationDataSchema.safeParse(row.data);
  return {
    id: row.id,
    type: row.type,
    description: row.description,
    readed: row.read_at !== null,
    data: data?.success ? data.data : null,
    userId: row.user_id,
    creationTime: row.created_at,
  };
}

/** The column's length: a longer text is cut rather than refused. */
const DESCRIPTION_MAX = 1000;

export interface NewNotification {
  type: string;
  description?: string | null;
  data?: NotificationData | null;
}

function push(context: AppContext, userId: string, event: string, payload: unknown): void {
  const hub = hubs.get(context);
  if (!hub) {
    context.logger.debug({ userId, event }, 'no notification hub on this node: the event is not pushed');
    return;
  }
  try {
    hub.emitToUser(userId, event, payload);
  } catch (error) {
    context.logger.warn({ err: (error as Error).message, userId, event }, 'notification push failed');
  }
}

/**
 * Stores a notification for `userId` and pushes it (NewNotification) to that user's open consoles,
 * on whichever node holds them. The row is what counts: a console that is not connected reads it
 * from the list later. Answers the notification as the list shows it.
 */
export async function notify(context: AppContext, userId: string, notification: NewNotification): Promise<UserNotification> {
  const row = await insertNotification(context.dataSource, {
    userId,
    type: notification.type,
    description: notification.description ? notification.description.slice(0, DESCRIPTION_MAX) : null,
    data: notification.data ? notificationDataSchema.parse(notification.data) : null,
  });
  const presented = notificationSchema.parse(presentNotification(row));
  push(context, userId, NOTIFICATION_HUB_EVENTS.newNotification, presented);
  return presented;
}

/**
 * Tells `userId`'s open consoles that one of their background processes started or moved on
 * (NewProcess): the console shows it until the process no longer is among the active tasks.
 */
export function announceProcess(context: AppContext, userId: string, process: z.input<typeof activeTaskSchema>): ActiveTask {
  const presented = activeTaskSchema.parse(process);
  push(context, userId, NOTIFICATION_HUB_EVENTS.newProcess, presented);
  return presented;
}
