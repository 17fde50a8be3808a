import type { Phrases } from './en';

export const it: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'Caricamento…',
  },
  portal: {
    home: {
      welcome:
        'Benvenuto nel tuo portale {{productName}}. Da qui potrai gestire il tuo account e i tuoi metodi di accesso.',
      environment: 'Ambiente: {{environment}}',
      loadError: 'Impossibile caricare la configurazione. Riprova più tardi.',
    },
    account: {
      title: 'Accesso',
      placeholder: 'Le schermate di accesso saranno presto disponibili.',
    },
    profile: {
      title: 'Profilo',
      placeholder: 'Il tuo profilo sarà presto disponibile qui.',
    },
  },
  admin: {
    dashboard: {
      title: 'Amministrazione',
      placeholder: 'La console di amministrazione di {{productName}} sarà presto disponibile qui.',
    },
  },
};
