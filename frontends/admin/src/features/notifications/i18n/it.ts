import type { NotificationsPhrases } from './en';

export const it: NotificationsPhrases = {
  button: {
    label: 'Notifiche',
    unread: '{{count}} notifiche non lette',
    unread_one: '{{count}} notifica non letta',
  },
  drawer: {
    title: 'Notifiche',
    empty: 'Nessuna notifica',
    deleteAll: 'Elimina tutte',
    confirmDeleteAll: 'Eliminare tutte le sue notifiche?',
    confirm: 'Elimina',
    cancel: 'Annulla',
    delete: 'Elimina questa notifica',
    unread: 'Nuova',
  },
  data: {
    total: 'Totale: {{count}}',
    imported: 'Importati: {{count}}',
    errors: 'Errori: {{count}}',
    warnings: 'Avvisi: {{count}}',
    openResult: 'Apri risultato',
    errorTitle: 'Si è verificato un errore',
  },
  result: {
    title: 'Risultato',
    errors: 'Errori',
    warnings: 'Avvisi',
    row: 'Riga',
    reason: 'Motivo',
    close: 'Chiudi',
  },
  toast: {
    newNotification: 'Nuova notifica',
  },
  processes: {
    running: '{{type}} in corso',
    queued: '{{type}} in attesa di avvio',
    progress: '{{progress}} di {{total}} completati',
    started: 'Avviato {{when}}',
  },
  types: {
    PermissionAssigned: 'Permesso assegnato',
    ExportMembers: 'Esportazione dei membri',
    ExportTenants: 'Esportazione delle entità',
    AdminReport: 'Report degli amministratori',
    BulkInsertUsers: 'Importazione di utenti',
    BulkInsertGroupMembers: 'Importazione di membri di gruppo',
    BulkInsertUsersWithTenant: 'Importazione di utenti con ruoli per entità',
    BulkInsertGroupsWithTenant: 'Importazione di gruppi con ruoli per entità',
    BulkInsertPermisionRequestForTenant: 'Importazione di richieste di permesso',
    BulkInsertUserAndPermisionRequestForTenant: 'Importazione di utenti e richieste di permesso',
    BulkChangeUsernameEmail: 'Modifiche di nomi utente ed e-mail',
    ExportAuthenticationLogs: 'Esportazione dei log di autenticazione',
    ExportSystemLogs: 'Esportazione dei log di sistema',
  },
};
