import type { WebhookEventType } from '@gatehouse/contracts';
import type { FormInstance } from 'antd/es/form';
import { fieldErrorsOf } from '../directory/components/errors';
import { inContractOrder } from './events';
import type { NewWebhook, Webhook, WebhookChanges } from './webhooks-api';

/** What the endpoint forms hold: texts as typed, the events ticked. */
export interface WebhookFormValues {
  url?: string;
  description?: string;
  /** The application whose events it hears (only at creation); none: a global endpoint. */
  applicationId?: string;
  events?: WebhookEventType[];
  enabled?: boolean;
}

/** The fields of an endpoint's Settings form, whose server errors it shows in place (`url`: `webhooks.invalid_url`, `webhooks.private_address`). */
export const WEBHOOK_FIELDS = ['url', 'description', 'events', 'enabled'] as const;

/** The New endpoint form's: the settings and the application. */
export const NEW_WEBHOOK_FIELDS = [...WEBHOOK_FIELDS, 'applicationId'] as const;

/** A new endpoint's form before anything is typed: global, no event, on. */
export const NEW_WEBHOOK_VALUES: WebhookFormValues = { url: '', description: '', applicationId: undefined, events: [], enabled: true };

/** An endpoint as its Settings form shows it. */
export function formValuesOf(webhook: Webhook): WebhookFormValues {
  return { url: webhook.url, description: webhook.description ?? '', events: inContractOrder(webhook.events), enabled: webhook.enabled };
}

const text = (value: string | undefined) => value?.trim() ?? '';

/** The settings to send: texts trimmed (an empty description is none), the events in the contract's order. */
export function changesOf(values: WebhookFormValues): WebhookChanges {
  return {
    url: text(values.url),
    description: text(values.description) || null,
    events: inContractOrder(values.events ?? []),
    enabled: values.enabled ?? true,
  };
}

/** A new endpoint to send: its settings and its application (null: global). */
export function newWebhookOf(values: WebhookFormValues): NewWebhook {
  return { ...changesOf(values), applicationId: values.applicationId || null };
}

/**
 * Puts the server's field errors under the form's fields (one on `events.2` under the events).
 * Returns whether every one found its field, in which case the form alone says what to fix.
 */
export function showWebhookErrors(form: FormInstance, error: unknown, fields: readonly string[]): boolean {
  const errors = fieldErrorsOf(error);
  const byField = new Map<string, string[]>();
  for (const item of errors) {
    const field = item.field.split('.')[0]!;
    if (!fields.includes(field)) continue;
    byField.set(field, [...(byField.get(field) ?? []), item.message]);
  }
  if (byField.size) form.setFields([...byField].map(([name, messages]) => ({ name, errors: messages })));
  const placed = [...byField.values()].reduce((total, messages) => total + messages.length, 0);
  return errors.length > 0 && placed === errors.length;
}
