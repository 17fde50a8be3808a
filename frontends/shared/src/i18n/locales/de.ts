import type { Phrases } from './en';

export const de: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'Wird geladen…',
  },
  portal: {
    home: {
      welcome:
        'Willkommen in Ihrem {{productName}}-Portal. Hier können Sie Ihr Konto und Ihre Anmeldemethoden verwalten.',
      environment: 'Umgebung: {{environment}}',
      loadError: 'Die Konfiguration konnte nicht geladen werden. Bitte versuchen Sie es später erneut.',
    },
    account: {
      title: 'Anmeldung',
      placeholder: 'Die Anmeldeseiten sind bald verfügbar.',
    },
    profile: {
      title: 'Profil',
      placeholder: 'Ihr Profil ist bald hier verfügbar.',
    },
  },
  admin: {
    dashboard: {
      title: 'Administration',
      placeholder: 'Die {{productName}}-Administrationskonsole ist bald hier verfügbar.',
    },
  },
};
