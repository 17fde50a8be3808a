import type { HierarchyType } from '@gatehouse/core';
import type { userDetailSchema, userListItemSchema } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { UserDetailRow, UserListRow } from './repository.js';

/** A user answer as the server builds it: dates stay Dates until the response schema writes them. */
export type UserListItem = z.input<typeof userListItemSchema>;
export type UserDetailItem = z.input<typeof userDetailSchema>;

export const toListItem = (row: UserListRow): UserListItem => ({
  id: row.id,
  userName: row.user_name,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  areaId: row.area_id,
  areaName: row.area_name,
  validateScopes: row.validate_scopes,
  locked: row.locked,
  draft: row.draft,
  modifiedOn: row.modified_on,
  language: row.language,
});

export const toDetail = (row: UserDetailRow): UserDetailItem => ({
  ...toListItem(row),
  jobTitle: row.job_title,
  manager: row.manager,
  teams: Array.isArray(row.teams) ? row.teams.map(String) : [],
  emailVerified: row.email_verified,
  twoFactorEnabled: row.two_factor_enabled,
  lastLoginAt: row.last_login_at,
  createdAt: row.created_at,
});

/** Own: the user's own grant or membership; ByHierarchy: through a group or an ancestor tenant; Both. */
export const hierarchyType = (own: boolean, byHierarchy: boolean): HierarchyType => (own && byHierarchy ? 'Both' : own ? 'Own' : 'ByHierarchy');
