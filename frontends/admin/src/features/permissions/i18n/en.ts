// English is the reference: every other language is typed `PermissionsPhrases`, so a key added
// here and forgotten elsewhere fails type-checking. The wordings follow the spec's, with its
// spelling mistakes corrected.
export const en = {
  page: {
    title: 'Permissions',
    users: 'Users',
    groups: 'Groups',
    userPermissions: 'User Permissions',
    bulk: 'Bulk upload',
    downloadUsersTemplate: 'Download users template',
    uploadUsers: 'Upload users with tenant roles',
    downloadGroupsTemplate: 'Download groups template',
    uploadGroups: 'Upload groups with tenant roles',
    allAreas: 'All areas',
  },
  columns: {
    userName: 'User name',
    name: 'Name',
    email: 'Email',
    area: 'Area',
    tenants: 'Tenants',
    description: 'Description',
    members: 'Members',
    permission: 'Permission',
  },
  badges: {
    global: 'Global',
    inheritable: 'Inheritable: also applies to the child tenants',
  },
  permission: {
    Reader: 'Reader',
    Owner: 'Owner',
  },
  group: {
    title: 'Group Details - {{name}}',
    loadingTitle: 'Group Details',
    tenants: 'Tenants',
    noTenants: 'This group holds no roles in any tenant.',
    users: 'Users',
  },
  check: {
    title: 'User Permissions',
    user: 'User',
    userPlaceholder: 'Search a user by name or email',
    selectUser: 'Please select a user to check permissions',
    groups: 'Groups',
    noGroups: 'No groups found for this user',
    applications: 'Roles per application',
    noApplications: 'No application roles found for this user',
    application: 'Application',
    roles: 'Roles',
  },
  mfa: {
    title: 'MFA Configuration',
    tenant: 'Tenant',
    area: 'Area',
    parent: 'Parent',
    required: 'Second factor required',
    switchLabel: 'Require a second factor from the users of {{title}}',
    enableConfirm: 'Require a second factor from the users of {{title}}?',
    enableText: 'At their next sign-in, they will have to confirm it with a second factor.',
    disableConfirm: 'Stop requiring a second factor from the users of {{title}}?',
    disableText: 'They will be able to sign in with their password alone.',
    enable: 'Require',
    disable: 'Stop requiring',
    saved: 'Changes have been saved',
  },
};

export type PermissionsPhrases = typeof en;
