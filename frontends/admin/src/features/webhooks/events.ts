import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@gatehouse/contracts';
import type { WebhooksPhrases } from './i18n/en';
import type { WebhooksT } from './use-webhooks-translation';

/** A group of the form's event checkboxes, by the prefix of the technical names. */
export interface EventGroup {
  key: keyof WebhooksPhrases['eventGroups'];
  events: WebhookEventType[];
}

const PREFIXES: ReadonlyArray<[EventGroup['key'], readonly string[]]> = [
  ['users', ['user.']],
  ['rolesAndGroups', ['role.', 'group.']],
  ['signIns', ['sign_in.']],
  ['operationRequests', ['operation_request.']],
  ['applications', ['application.']],
];

/**
 * The event types grouped as the form shows them (Users, Roles and groups, Sign-ins, Operation
 * requests, Applications), each in the contract's order. A type of a prefix not listed here (one
 * the contract gains later) lands in a group of its own rather than out of reach.
 */
export const EVENT_GROUPS: readonly EventGroup[] = PREFIXES.map(([key, prefixes]) => ({
  key,
  events: WEBHOOK_EVENT_TYPES.filter((type) => prefixes.some((prefix) => type.startsWith(prefix))),
}));

/** The event types no group above holds: shown under Applications, the last group. */
const UNGROUPED = WEBHOOK_EVENT_TYPES.filter((type) => !EVENT_GROUPS.some((group) => group.events.includes(type)));
if (UNGROUPED.length) EVENT_GROUPS.at(-1)!.events.push(...UNGROUPED);

/** An event type's human name ("User created"); its technical name for one the phrases do not know. */
export function eventLabel(t: WebhooksT, type: string): string {
  return t(`events.${type}` as `events.${WebhookEventType}`, { defaultValue: type });
}

/** The event types in the contract's order (what the form sends, whatever order they were ticked in). */
export function inContractOrder(events: readonly string[]): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));
}
