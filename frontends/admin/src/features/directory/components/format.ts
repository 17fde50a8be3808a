/** First and last name, else the user name. */
export function displayName(user: { firstName?: string | null; lastName?: string | null; userName: string }): string {
  return [user.firstName, user.lastName].filter((part) => part?.trim()).join(' ') || user.userName;
}
