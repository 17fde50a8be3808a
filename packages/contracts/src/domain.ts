/** The Global tenant: roles held here apply in every tenant. */
export const GLOBAL_TENANT_ID = '00000000-0000-0000-0000-000000000000';
/** This product's own application: its roles are the global administration roles. */
export const IDENTITY_APPLICATION_ID = '1';
export const DEFAULT_AREA_NAME = 'Default';
export const CUSTOMERS_AREA_NAME = 'Customers';

export const LANGUAGES = ['fr', 'en', 'es', 'pt-PT', 'pt-BR', 'it', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'fr';
export const FALLBACK_LANGUAGE: Language = 'en';

export const IDENTITY_ROLES = [
  'God',
  'Administrator',
  'AreaAdministrator',
  'TenantAdministrator',
  'Manager',
  'User',
  'IdentityConsultant',
  'ServiceManager',
] as const;
export type IdentityRole = (typeof IDENTITY_ROLES)[number];

export const APPLICATION_STATUSES = ['Running', 'Maintenance', 'Stopped'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const CLIENT_TYPES = ['public', 'confidential'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const ID_TOKEN_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;

/** How a confidential application proves itself at the token endpoint (RFC 6749 §2.3, RFC 7523 §2.2). */
export const CLIENT_AUTHENTICATIONS = ['client_secret_basic', 'private_key_jwt'] as const;
export type ClientAuthentication = (typeof CLIENT_AUTHENTICATIONS)[number];

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;

export const TENANT_CREATION_TYPES = ['Auto', 'Manual'] as const;

export const IDENTITY_TYPES = ['User', 'Group'] as const;
export type IdentityType = (typeof IDENTITY_TYPES)[number];

export const HIERARCHY_TYPES = ['Own', 'ByHierarchy', 'Both'] as const;
export type HierarchyType = (typeof HIERARCHY_TYPES)[number];

export const GROUP_PERMISSIONS = ['Reader', 'Owner'] as const;
export type GroupPermission = (typeof GROUP_PERMISSIONS)[number];

/** Internal = 1, External = 2, as the self-service filters send them. */
export const USER_TYPES = { Internal: 1, External: 2 } as const;

export const OPERATION_REQUEST_TYPES = [
  'Permission',
  'BulkInsert',
  'PolarisPermissionCreate',
  'ApproveOperationRequest',
] as const;
export const OPERATION_REQUEST_STATUSES = [
  'WaitingForApprover',
  'Applied',
  'Rejected',
  'Cancelled',
  'RollBack',
] as const;

export const AUTHENTICATION_RESULTS = ['Success', 'Failure', 'UserLocked', 'FullUserLocked', 'Unlocked'] as const;
export const AUTHENTICATION_PROVIDERS = ['Local', 'Microsoft'] as const;

export const JOB_TYPES = [
  'ExportMembers',
  'ExportTenants',
  'AdminReport',
  'BulkInsertUsers',
  'BulkInsertGroupMembers',
  'BulkInsertUsersWithTenant',
  'BulkInsertGroupsWithTenant',
  'BulkInsertPermisionRequestForTenant',
  'BulkInsertUserAndPermisionRequestForTenant',
  'BulkChangeUsernameEmail',
  'ExportAuthenticationLogs',
  'ExportSystemLogs',
] as const;
export const JOB_STATUSES = ['Queued', 'Running', 'Succeeded', 'Failed', 'Cancelled'] as const;

export const RIGHTS = ['Access', 'Information', 'Correction', 'TreatmentOpisition', 'Supression', 'DataPortability'] as const;
export const RIGHTS_REQUEST_TYPES = ['Direct', 'Representative'] as const;

/**
 * JobDashboard: the one-time code that opens the jobs view in a new tab; IdentifyAs: the one-time
 * code that hands an impersonation from the console to the identity provider.
 */
export const USER_TOKEN_PURPOSES = ['PasswordReset', 'Invitation', 'EmailVerification', 'SignInCode', 'ExpiredPassword', 'JobDashboard', 'IdentifyAs'] as const;
/** How signing in as another user (Identify As) ended: by the end button, or at its configured time. */
export const IDENTIFY_AS_END_REASONS = ['Ended', 'Expired'] as const;
export type IdentifyAsEndReason = (typeof IDENTIFY_AS_END_REASONS)[number];
/** Kept: no SMTP server is configured; the mail stays in the outbox. */
export const MAIL_STATUSES = ['Pending', 'Sent', 'Failed', 'Kept'] as const;
export const SIGNING_KEY_STATUSES = ['active', 'retiring', 'retired'] as const;
