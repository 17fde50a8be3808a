import type { Phrases } from './en';

export const it: Phrases = {
  common: {
    productName: 'Gatehouse',
    loading: 'Caricamento…',
    notSet: '(Non impostato)',
    errors: {
      notFound: 'Non trovato',
      accessDenied: 'Accesso negato',
      unknown: 'Errore sconosciuto',
    },
  },
  admin: {
    dashboard: {
      title: 'Amministrazione',
      placeholder: 'La console di amministrazione di {{productName}} sarà presto disponibile qui.',
    },
  },
};
