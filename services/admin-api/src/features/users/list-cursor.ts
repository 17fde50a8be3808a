import { createHash } from 'node:crypto';
import type { UserSortField } from '@gatehouse/contracts';
import { AppError } from '@gatehouse/core';
import { SORT_KEYS, type ListCursor, type UserListFilter } from './repository.js';

/**
 * The users list's `cursor` and `next`: where a page ended, for the next page to start right after
 * it. Clients treat it as opaque text: base64url of a small JSON array holding a version, a
 * fingerprint of the search, filters and sort of the list it belongs to, the last row's sort value
 * and its id. Nothing in it is secret or trusted: the caller's scope applies to every page whatever
 * it says, and every part is checked before it reaches SQL.
 */
const VERSION = 1;

/** The list a cursor belongs to: its search, filters and sort (the caller's scope aside). */
export interface CursorList {
  filter: Omit<UserListFilter, 'areaIds'>;
  sort: { field: UserSortField; direction: 'asc' | 'desc' };
}

function fingerprintOf({ filter, sort }: CursorList): string {
  const parts = [filter.search, filter.locked ?? null, filter.areaId ?? null, sort.field, sort.direction];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodeCursor(list: CursorList, cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([VERSION, fingerprintOf(list), cursor.key, cursor.id])).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A date as the list writes it: UTC, to the microsecond. */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}$/;

/** Whether `value` is a real date and time of years 1 to 9999 (PostgreSQL refuses 2025-02-30 or year 0). */
function isTimestamp(value: string): boolean {
  const match = TIMESTAMP.exec(value);
  if (!match) return false;
  const date = new Date(`${match[1]}Z`);
  return !Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1 && date.toISOString().slice(0, 23) === match[1];
}

/** Whether `key` is a value the sort field can hold, as the list writes it. */
function isKeyOf(field: UserSortField, key: unknown): key is ListCursor['key'] {
  const { type, nullable } = SORT_KEYS[field];
  if (key === null) return nullable;
  if (type === 'boolean') return typeof key === 'boolean';
  // No text column holds a NUL character: PostgreSQL would refuse the comparison.
  if (typeof key !== 'string' || key.includes('\u0000')) return false;
  return type === 'timestamptz' ? isTimestamp(key) : true;
}

const refused = (code: 'validation.invalid' | 'validation.cursor_other_list') => new AppError('errors.validation', 400, {}, [{ field: 'cursor', code }]);

/**
 * The cursor a previous page answered as `next`, for `list`. Refused with a 400 naming `cursor`
 * when it is not one the list wrote, or when it belongs to another search, filter or sort.
 */
export function decodeCursor(text: string, list: CursorList): ListCursor {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw refused('validation.invalid');
  }
  if (!Array.isArray(parts) || parts.length !== 4 || parts[0] !== VERSION || typeof parts[1] !== 'string') throw refused('validation.invalid');
  const [, fingerprint, key, id] = parts as [number, string, unknown, unknown];
  if (typeof id !== 'string' || !UUID.test(id)) throw refused('validation.invalid');
  if (fingerprint !== fingerprintOf(list)) throw refused('validation.cursor_other_list');
  if (!isKeyOf(list.sort.field, key)) throw refused('validation.invalid');
  return { key, id: id.toLowerCase() };
}
