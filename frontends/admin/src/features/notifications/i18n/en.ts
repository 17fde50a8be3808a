// English is the reference: every other language is typed `NotificationsPhrases`, so a key added
// here and forgotten elsewhere fails type-checking. The wordings follow the spec's.
export const en = {
  button: {
    label: 'Notifications',
    unread: '{{count}} unread notifications',
    unread_one: '{{count}} unread notification',
  },
  drawer: {
    title: 'Notifications',
    empty: 'No Notifications',
    deleteAll: 'Delete all',
    confirmDeleteAll: 'Delete all your notifications?',
    confirm: 'Delete',
    cancel: 'Cancel',
    delete: 'Delete this notification',
    unread: 'New',
  },
  data: {
    total: 'Total: {{count}}',
    imported: 'Imported: {{count}}',
    errors: 'Errors: {{count}}',
    warnings: 'Warnings: {{count}}',
    openResult: 'Open Result',
    errorTitle: 'An error occurred',
  },
  result: {
    title: 'Result',
    errors: 'Errors',
    warnings: 'Warnings',
    row: 'Row',
    reason: 'Reason',
    close: 'Close',
  },
  toast: {
    newNotification: 'New notification',
  },
  processes: {
    running: '{{type}} in progress',
    queued: '{{type}} waiting to start',
    progress: '{{progress}} of {{total}} done',
    started: 'Started {{when}}',
  },
  types: {
    PermissionAssigned: 'Permission assigned',
    OperationRequest: 'Operation request',
    WebhookDisabled: 'Webhook turned off',
    ExportMembers: 'Members export',
    ExportTenants: 'Tenants export',
    AdminReport: 'Administrators report',
    BulkInsertUsers: 'Users import',
    BulkInsertGroupMembers: 'Group members import',
    BulkInsertUsersWithTenant: 'Users with tenant roles import',
    BulkInsertGroupsWithTenant: 'Groups with tenant roles import',
    BulkInsertPermisionRequestForTenant: 'Permission requests import',
    BulkInsertUserAndPermisionRequestForTenant: 'Users and permission requests import',
    BulkChangeUsernameEmail: 'User name and email changes',
    ExportAuthenticationLogs: 'Authentication logs export',
    ExportSystemLogs: 'System logs export',
  },
};

export type NotificationsPhrases = typeof en;
