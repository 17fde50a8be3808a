// English is the reference: every other language is typed `LogsPhrases`, so a key added here and
// forgotten elsewhere fails type-checking. The wordings follow the spec's.
export const en = {
  page: {
    title: 'Logs',
    authentication: 'Authentication Logs',
    system: 'System Logs',
    session: 'Session Logs',
    externalApiAccess: 'External Api Access Log',
  },
  columns: {
    // Who acted on behalf of the row's user, signed in as them (Identify As).
    onBehalf: '{{name}} on their behalf',
    date: 'Date',
    userName: 'User',
    result: 'Result',
    provider: 'Provider',
    application: 'Application',
    ip: 'IP address',
    reason: 'Reason',
    tenant: 'Tenant',
    operation: 'Operation',
    roles: 'Roles',
    apiEntry: 'Event',
  },
  filters: {
    from: 'From',
    to: 'To',
    searchUser: 'Search user',
    result: 'Result',
    allResults: 'All results',
    provider: 'Provider',
    allProviders: 'All providers',
    operation: 'Operation',
    allOperations: 'All operations',
    intoMetadata: 'Text in metadata',
    metadataTenant: 'Tenant concerned',
    metadataUser: 'User concerned',
    anyTenant: 'Any tenant',
    application: 'Application',
    tenant: 'Tenant',
    includeHierarchy: 'Include child tenants',
    apiEntry: 'Event',
    allEvents: 'All events',
    ip: 'IP address',
  },
  results: {
    Success: 'Success',
    Failure: 'Failure',
    UserLocked: 'User locked',
    Unlocked: 'Unlocked',
    FullUserLocked: 'Permanent lock',
  },
  details: {
    metadata: 'Metadata',
    returnUrl: 'Return URL',
    userAgent: 'Browser',
    reason: 'Reason',
  },
  export: {
    button: 'Export to Excel',
    queuedTitle: 'Operation Completed Successfully',
    queuedText: 'Your operation will be processed in background.',
  },
};

export type LogsPhrases = typeof en;
