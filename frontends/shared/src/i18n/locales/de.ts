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
    roleOrigin: {
      own: 'eigener Name',
      group: 'über die Gruppe {{group}}',
      hierarchy: 'geerbt von {{tenant}}',
      hierarchyViaGroup: 'geerbt von {{tenant}} über die Gruppe {{group}}',
    },
    termsOnlyIn: 'Diese Bedingungen gibt es nur auf {{languages}}.',
    table: {
      columns: 'Spalten',
      columnsShown: 'Angezeigte Spalten',
    },
  },
  admin: {
    dashboard: {
      title: 'Administration',
      placeholder: 'Die {{productName}}-Administrationskonsole ist bald hier verfügbar.',
    },
  },
};
