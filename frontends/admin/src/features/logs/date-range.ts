import dayjs, { type Dayjs } from 'dayjs';

/** The console's date format. */
export const LOG_DATE_FORMAT = 'DD-MM-YYYY';

/** An instant as the API takes it (spec 7): `YYYY-MM-DD HH:mm:ss`, in UTC. */
export function toApiDate(instant: Dayjs): string {
  return instant.toDate().toISOString().slice(0, 19).replace('T', ' ');
}

/** The instant an API date names (null when there is none or it is no date). */
export function fromApiDate(value: string | undefined): Dayjs | null {
  if (!value) return null;
  const instant = dayjs(new Date(`${value.replace(' ', 'T')}Z`));
  return instant.isValid() ? instant : null;
}

/** A range starts at the first instant of the day picked, in the user's time zone. */
export const rangeStart = (day: Dayjs) => toApiDate(day.startOf('day'));

/** A range ends with the last second of the day picked: the API counts that whole second in. */
export const rangeEnd = (day: Dayjs) => toApiDate(day.endOf('day'));

/** Days the From picker refuses: after the To day, and after today (no log comes from the future). */
export function disabledStart(day: Dayjs, end: Dayjs | null, today: Dayjs = dayjs()): boolean {
  return day.isAfter(today, 'day') || (end !== null && day.isAfter(end, 'day'));
}

/** Days the To picker refuses: before the From day, and after today. */
export function disabledEnd(day: Dayjs, start: Dayjs | null, today: Dayjs = dayjs()): boolean {
  return day.isAfter(today, 'day') || (start !== null && day.isBefore(start, 'day'));
}
