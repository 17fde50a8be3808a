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
  },
  admin: {
    dashboard: {
      title: 'Administration',
      placeholder: 'The {{productName}} administration console will be available here soon.',
    },
  },
};

export type Phrases = typeof en;
