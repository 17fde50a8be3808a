import type { Phrases } from './en';

export const de: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'Wird geladen…',
    notSet: '(Nicht festgelegt)',
    errors: {
      notFound: 'Nicht gefunden',
      accessDenied: 'Zugriff verweigert',
      unknown: 'Unbekannter Fehler',
    },
    notFoundPage: {
      title: 'Seite nicht gefunden',
      body: 'Die gesuchte Seite existiert nicht oder wurde gelöscht.',
      action: 'Zurück zur Startseite',
    },
  },
  admin: {
    dashboard: {
      title: 'Administration',
      placeholder: 'Die {{productName}}-Administrationskonsole ist bald hier verfügbar.',
    },
  },
};
