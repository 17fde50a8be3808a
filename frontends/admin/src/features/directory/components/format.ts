/** A date and time as the interface language writes it; the raw value when it is not a date. */
export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(date);
  } catch {
    return date.toLocaleString();
  }
}

/** First and last name, else the user name. */
export function displayName(user: { firstName?: string | null; lastName?: string | null; userName: string }): string {
  return [user.firstName, user.lastName].filter((part) => part?.trim()).join(' ') || user.userName;
}
