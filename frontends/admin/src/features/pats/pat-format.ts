const pad = (value: number) => String(value).padStart(2, '0');

/** The console's date format, DD-MM-YYYY, in the browser's time zone. */
export function shownDay(iso: string): string {
  const date = new Date(iso);
  return `${pad(date.getDate())}-${pad(date.getMonth() + 1)}-${date.getFullYear()}`;
}

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/** How long ago (or how far ahead) a moment is, in the interface language: "3 days ago", "yesterday". */
export function relativeTime(iso: string, language: string, now: number): string {
  const elapsed = new Date(iso).getTime() - now;
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(elapsed) >= size) return format.format(Math.round(elapsed / size), unit);
  }
  return format.format(0, 'minute');
}
