import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export interface FormatDateTimeOptions {
  /** What an empty value shows (the spec's "(Not set)", translated). */
  notSet: string;
  /** An IANA time zone; the user's (the browser's) when not given. */
  timeZone?: string;
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

function zonedParts(date: Date, timeZone: string): Record<string, string> {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  return Object.fromEntries(parts.map((part) => [part.type, part.value]));
}

/**
 * A date as `DD-MM-YYYY hh:mm:ss` (24-hour clock) in the user's time zone, `notSet` for an empty
 * value, and the value itself when it is not a date.
 */
export function formatDateTime(value: string | number | Date | null | undefined, { notSet, timeZone }: FormatDateTimeOptions): string {
  if (value === null || value === undefined || value === '') return notSet;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  if (timeZone) {
    const p = zonedParts(date, timeZone);
    return `${p.day}-${p.month}-${p.year} ${p.hour}:${p.minute}:${p.second}`;
  }
  const day = `${pad(date.getDate())}-${pad(date.getMonth() + 1)}-${pad(date.getFullYear(), 4)}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** {@link formatDateTime} with the interface language's "(Not set)". */
export function useFormatDateTime(): (value: string | number | Date | null | undefined) => string {
  const { t } = useTranslation();
  const notSet = t('common.notSet');
  return useCallback((value) => formatDateTime(value, { notSet }), [notSet]);
}
