/**
 * Cache tags shared across the directory's endpoints: a membership changed from the user page
 * must refresh the group's pages, and the other way round.
 */
export const USER_LIST_TAG = { type: 'User' as const, id: 'LIST' };
export const GROUP_LIST_TAG = { type: 'Group' as const, id: 'LIST' };

export const userTag = (userId: string) => ({ type: 'User' as const, id: userId });
export const userGroupsTag = (userId: string) => ({ type: 'User' as const, id: `${userId}/groups` });
export const userTenantsTag = (userId: string) => ({ type: 'User' as const, id: `${userId}/tenants` });
export const userRolesTag = (userId: string) => ({ type: 'User' as const, id: `${userId}/roles` });
export const userFactorsTag = (userId: string) => ({ type: 'User' as const, id: `${userId}/factors` });

export const groupTag = (groupId: string) => ({ type: 'Group' as const, id: groupId });
export const groupMembersTag = (groupId: string) => ({ type: 'Group' as const, id: `${groupId}/members` });
export const groupRolesTag = (groupId: string) => ({ type: 'Group' as const, id: `${groupId}/roles` });
