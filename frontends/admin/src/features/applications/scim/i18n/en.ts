// English is the reference: every other language is typed `ScimPhrases`, so a key added here and
// forgotten elsewhere fails type-checking. The server's error codes (scimTokens.*) are translated
// by the server; the buttons every dialog shares (Create, Cancel, Close) are the directory's.
export const en = {
  tab: {
    intro:
      'With SCIM provisioning, a directory such as Microsoft Entra ID or an HR system creates, updates, deactivates and deletes the users and groups of one area, through the SCIM 2.0 base URL below and a token issued here.',
    reach: 'Each token reaches the users and groups of its own area only. Users and groups holding administration roles are out of its reach.',
    baseUrl: 'SCIM base URL',
    copyUrl: 'Copy the SCIM base URL',
    tokens: 'SCIM tokens',
    newToken: 'New token',
  },
  tokens: {
    name: 'Name',
    area: 'Area',
    hint: 'Token',
    createdBy: 'Created by',
    createdAt: 'Created',
    expiresAt: 'Expires',
    lastUsedAt: 'Last used',
    never: 'Never',
    expired: 'Expired',
    revoke: 'Revoke',
    revokeToken: 'Revoke the token {{name}}',
    revokeConfirm: 'Revoke the token {{name}}?',
    revokeWarning: 'Provisioning with it stops at once: the area {{area}} is no longer kept in step through this token. This cannot be undone.',
    revoked: 'The token {{name}} has been revoked',
    issued: 'The token {{name}} has been issued',
  },
  form: {
    title: 'New SCIM token',
    name: 'Name',
    nameHelp: 'Tells the tokens apart, e.g. the system that uses it.',
    nameRequired: 'Enter a name for the token',
    tooLong: 'At most {{max}} characters',
    area: 'Area',
    areaHelp: 'The area whose users and groups the token provisions.',
    areaRequired: 'Choose an area',
    expiresAt: 'Expiry',
    expiresAtPlaceholder: 'In a year',
    expiryHelp: 'The token is refused from this day on. Empty: a year from today; at most two years ahead.',
    expiryInPast: 'Choose a day after today',
  },
  issued: {
    title: 'SCIM token {{name}}',
    warning:
      'This is the token the SCIM client (Microsoft Entra ID, an HR system) sends as its bearer token, with the SCIM base URL. Save it carefully: once you close this dialog, you will not see it again.',
    value: 'SCIM token',
    baseUrl: 'SCIM base URL',
    area: 'Area',
    expiresAt: 'Expires',
  },
  copy: {
    copy: 'Copy',
    tokenCopied: 'Token copied to clipboard!',
    urlCopied: 'SCIM base URL copied to clipboard!',
    failed: 'It could not be copied: select it and copy it yourself.',
  },
};

export type ScimPhrases = typeof en;
