import { OPERATION_REQUEST_TYPES } from '../domain.js';

// The Logs page's closed lists and limits: plain values, no schema, so the console takes them as they are.

/** The events of the external API that its access log records (spec 3, "Logs"). */
export const EXTERNAL_API_ENTRIES = [
  'GetRoles',
  'RemoveRolesInTenant',
  'GetUserWithRole',
  'InviteUsers',
  'InviteUsersWithOperationRequest',
  'LockUser',
  'GetEntities',
] as const;
export type ExternalApiEntry = (typeof EXTERNAL_API_ENTRIES)[number];

/**
 * The operations the product writes to the system log: the spec's four, then the administrative
 * changes. The filter takes any operation name; this list is what the console offers.
 */
export const SYSTEM_LOG_OPERATIONS = [
  ...OPERATION_REQUEST_TYPES,
  'CreateUser',
  'UpdateUser',
  'DeleteUser',
  'InviteUser',
  'ChangeUserPassword',
  'ChangeUserName',
  'LockUser',
  'UnlockUser',
  'AddPasskey',
  'RemovePasskey',
  'EnrolAuthenticatorApp',
  'RemoveAuthenticatorApp',
  'GenerateRecoveryCodes',
  'UseRecoveryCode',
  'ResetFactors',
  'CreateGroup',
  'UpdateGroup',
  'DeleteGroup',
  'AddGroupMember',
  'UpdateGroupMember',
  'RemoveGroupMember',
  'AddGroupTenantRoles',
  'RemoveGroupTenant',
  'CreateTenant',
  'UpdateTenant',
  'DeleteTenant',
  'MoveTenant',
  'TwoModeAuth',
  'CreateApplication',
  'UpdateApplication',
  'ChangeApplicationStatus',
  'DeleteApplication',
  'RegenerateApplicationSecret',
  'AddApplicationOwner',
  'RemoveApplicationOwner',
  'CreateRole',
  'UpdateRole',
  'DeleteRole',
  'CreateRoleScope',
  'UpdateRoleScope',
  'DeleteRoleScope',
  'CreatePersonalAccessToken',
  'DeletePersonalAccessToken',
  'CreateScimToken',
  'DeleteScimToken',
  'UpdateSecurityConfig',
  'ExportConfiguration',
  'IdentifyAs',
  'EndIdentifyAs',
] as const;

/** Rows an export holds at most: a filter that selects more is refused (400 `logs.export_too_large`). */
export const LOG_EXPORT_MAX_ROWS = 100_000;
