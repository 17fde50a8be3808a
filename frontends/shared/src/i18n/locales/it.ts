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
    notFoundPage: {
      title: 'Pagina non trovata',
      body: 'La pagina che cerchi non esiste o è stata eliminata.',
      action: 'Torna alla home',
    },
  },
  admin: {
    dashboard: {
      title: 'Amministrazione',
      placeholder: 'La console di amministrazione di {{productName}} sarà presto disponibile qui.',
    },
  },
};
