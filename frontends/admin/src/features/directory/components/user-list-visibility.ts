/**
 * Leaves out what belongs to an application marked `hideInUserList` (the product's own clients,
 * "Administration console" and "Portal"): administrators grant no roles in them, so role pickers
 * and role-access lists do not offer them. An item without the flag is shown.
 */
export function shownInUserLists<T extends object>(items: readonly T[]): T[] {
  return items.filter((item) => !('hideInUserList' in item && item.hideInUserList === true));
}
