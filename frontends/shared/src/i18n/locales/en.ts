// English is the reference locale: every other locale is typed `Phrases`, so a key
// added here and forgotten elsewhere fails type-checking instead of shipping a blank.
// Phrases here are the ones both SPAs use; each app keeps its screens' phrases in its own
// namespace (see `CreateI18nOptions.namespaces`).
export const en = {
  common: {
    productName: 'Gatehouse',
    loading: 'Loading…',
    notSet: '(Not set)',
    errors: {
      notFound: 'Not found',
      accessDenied: 'Access is denied',
      unknown: 'Unknown error',
    },
    notFoundPage: {
      title: 'Page not found',
      body: 'The page you are looking for does not exist or has been deleted.',
      action: 'Back to home',
    },
    // How an identity holds a role, after the role on its tag.
    roleOrigin: {
      own: 'own name',
      group: 'through the group {{group}}',
      hierarchy: 'inherited from {{tenant}}',
      hierarchyViaGroup: 'inherited from {{tenant}} through the group {{group}}',
    },
    /** Terms (a disclaimer) shown in another language than the reader's, because they exist only in these. */
    termsOnlyIn: 'These terms exist only in {{languages}}.',
    table: {
      columns: 'Columns',
      columnsShown: 'Columns shown',
    },
  },
  admin: {
    dashboard: {
      title: 'Administration',
      placeholder: 'The {{productName}} administration console will be available here soon.',
    },
  },
};

export type Phrases = typeof en;
