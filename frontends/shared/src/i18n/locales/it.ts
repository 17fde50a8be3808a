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
    roleOrigin: {
      own: 'a nome proprio',
      group: 'tramite il gruppo {{group}}',
      hierarchy: 'ereditato da {{tenant}}',
      hierarchyViaGroup: 'ereditato da {{tenant}} tramite il gruppo {{group}}',
    },
    termsOnlyIn: 'Queste condizioni esistono solo in {{languages}}.',
    table: {
      columns: 'Colonne',
      columnsShown: 'Colonne visualizzate',
    },
  },
  admin: {
    dashboard: {
      title: 'Amministrazione',
      placeholder: 'La console di amministrazione di {{productName}} sarà presto disponibile qui.',
    },
  },
};
