import { useMemo } from 'react';
import type { AdminMe } from '@gatehouse/contracts';
import { useMeQuery } from '../api/me';
import { grants, Roles } from './roles';

export interface CurrentUser {
  id: string;
  userName: string;
  /** First and last name, else the user name. */
  fullName: string;
  roles: string[];
  /**
   * True when the user holds one of `roles`. God counts as Administrator (it holds every
   * Administrator right), so `hasRole('Administrator')` is true for God as well.
   */
  hasRole(...roles: string[]): boolean;
  /** Administrator or God. */
  isAdministrator: boolean;
  isGod: boolean;
}

export function fullNameOf(me: Pick<AdminMe, 'firstName' | 'lastName' | 'userName'>): string {
  const name = [me.firstName, me.lastName].filter((part): part is string => Boolean(part?.trim())).join(' ');
  return name || me.userName;
}

export function toCurrentUser(me: AdminMe): CurrentUser {
  const roles = [...me.roles];
  return {
    id: me.id,
    userName: me.userName,
    fullName: fullNameOf(me),
    roles,
    hasRole: (...wanted) => grants(roles, ...wanted),
    isAdministrator: grants(roles, Roles.Administrator),
    isGod: roles.includes(Roles.God),
  };
}

/**
 * The signed-in administrator, from `GET /me`. Inside the console's layout it is always loaded
 * (the entry rule waits for it), so pages can rely on it; elsewhere it is undefined until then.
 */
export function useCurrentUser(): CurrentUser {
  const { data } = useMeQuery();
  const user = useMemo(() => (data ? toCurrentUser(data) : undefined), [data]);
  if (!user) throw new Error('useCurrentUser is used outside the signed-in console');
  return user;
}
