// English is the reference locale: every other locale is typed `Phrases`, so a key
// added here and forgotten elsewhere fails type-checking instead of shipping a blank.
export const en = {
  common: {
    productName: 'Gatehouse',
    loading: 'Loading…',
  },
  portal: {
    home: {
      welcome:
        'Welcome to your {{productName}} portal. From here you will manage your account and your sign-in methods.',
      environment: 'Environment: {{environment}}',
      loadError: 'The configuration could not be loaded. Please try again later.',
    },
    account: {
      title: 'Sign-in',
      placeholder: 'The sign-in screens will be available soon.',
    },
    profile: {
      title: 'Profile',
      placeholder: 'Your profile will be available here soon.',
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
