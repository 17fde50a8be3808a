import { LANGUAGES, personLanguage, type AppContext, type Language } from '@gatehouse/core';
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
import type { AdminContext } from '../../admin-context.js';
import { insertNotification, type NotificationRow } from './repository.js';

/** What reaches a user's open consoles: on this node, and through the hub's adapter on the others. */
export interface HubEmitter {
  emitToUser(userId: string, event: string, payload: unknown): void;
}

/**
 * Makes `hub` the one through which this node's notifications are pushed; answers the function
 * that stops it. One hub per node: with a shared adapter one emit already reaches every node.
 */
export function registerHub(context: AdminContext, hub: HubEmitter): () => void {
  const { notifications } = context;
  if (notifications.hub) throw new Error('a notification hub is already attached to this context');
  notifications.hub = hub;
  return () => {
    if (notifications.hub === hub) delete notifications.hub;
  };
}

/** A notification's message: a server phrase's key and its parameters. */
export interface NotificationMessage {
  key: string;
  params: Record<string, unknown>;
}

function messageOf(value: unknown): NotificationMessage | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (typeof key !== 'string') return undefined;
  return { key, params: params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {} };
}

/**
 * A notification as the list and the hub present it (times as Dates, written out by the schema).
 * With `render`, a notification kept as a phrase and its parameters is written in its language, the
 * reader's; otherwise, and for rows kept as text only, it says what was written for the recipient.
 */
export function presentNotification(row: NotificationRow, render?: { context: AppContext; language: string }): z.input<typeof notificationSchema> {
  // Whatever else a row's data holds (written by an older version, say) is not the console's.
  const data = row.data === null || row.data === undefined ? null : notificationDataSchema.safeParse(row.data);
  const message = render ? messageOf(row.message) : undefined;
  const description = message ? writeMessage(render!.context, message, render!.language) : row.description;
  return {
    id: row.id,
    type: row.type,
    description,
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
  /** A text as it is, in no particular language (a message keeps better: see `message`). */
  description?: string | null;
  /**
   * What it says, as a server phrase and its parameters: kept so, and written in the language
   * of whoever lists it; `language` (the recipient's, else their saved one) writes the text pushed now.
   */
  message?: NotificationMessage;
  language?: string;
  data?: NotificationData | null;
}

/** A message in `language`, cut to the column's length like a stored description. */
function writeMessage(context: AppContext, message: NotificationMessage, language: string): string {
  return (context.i18n.t(message.key, { ...message.params, lng: language }) as string).slice(0, DESCRIPTION_MAX);
}

/** The recipient's saved preferred language, else the product's default. */
async function savedLanguage(context: AppContext, userId: string): Promise<Language> {
  const [row] = (await context.dataSource.query('SELECT language FROM users WHERE id = $1', [userId])) as Array<{ language: string }>;
  return personLanguage(undefined, row?.language);
}

function push(context: AdminContext, userId: string, event: string, payload: unknown): void {
  const { hub } = context.notifications;
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
 * on whichever node holds them, written in `notification.language` (else the user's saved one). The
 * row is what counts: a console that is not connected reads it from the list later, in its own
 * language. Answers the notification as the list shows it.
 */
export async function notify(context: AdminContext, userId: string, notification: NewNotification): Promise<UserNotification> {
  const { message } = notification;
  let description = notification.description ? notification.description.slice(0, DESCRIPTION_MAX) : null;
  if (message) {
    const asked = LANGUAGES.find((language) => language === notification.language);
    description = writeMessage(context, message, asked ?? (await savedLanguage(context, userId)));
  }
  const row = await insertNotification(context.dataSource, {
    userId,
    type: notification.type,
    description,
    data: notification.data ? notificationDataSchema.parse(notification.data) : null,
    message: message ? { key: message.key, params: message.params } : null,
  });
  const presented = notificationSchema.parse(presentNotification(row));
  push(context, userId, NOTIFICATION_HUB_EVENTS.newNotification, presented);
  return presented;
}

/**
 * Tells `userId`'s open consoles that one of their background processes started or moved on
 * (NewProcess): the console shows it until the process no longer is among the active tasks.
 */
export function announceProcess(context: AdminContext, userId: string, process: z.input<typeof activeTaskSchema>): ActiveTask {
  const presented = activeTaskSchema.parse(process);
  push(context, userId, NOTIFICATION_HUB_EVENTS.newProcess, presented);
  return presented;
}
