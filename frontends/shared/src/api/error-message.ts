import type { TFunction } from 'i18next';

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value;
  if (isRecord(value)) return text(value.message);
  return undefined;
}

/**
 * What to show for a failed API call, in the spec's order: 404 'Not found', 401 'Access is denied',
 * else the server's `error`, its `message` (or a nested one), its list of messages joined with
 * '. ', else 'Unknown error'. The server already wrote its messages in the request's language.
 */
export function apiErrorMessage(status: number | string | undefined, body: unknown, t: TFunction<'translation'>): string {
  if (status === 404) return t('common.errors.notFound');
  if (status === 401) return t('common.errors.accessDenied');
  if (isRecord(body)) {
    const direct = text(body.error) ?? text(body.message);
    if (direct) return direct;
    if (Array.isArray(body.errors)) {
      const messages = body.errors.map(text).filter((m): m is string => Boolean(m));
      if (messages.length) return messages.join('. ');
    }
  }
  return t('common.errors.unknown');
}
