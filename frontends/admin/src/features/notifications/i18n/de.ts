import type { NotificationsPhrases } from './en';

export const de: NotificationsPhrases = {
  button: {
    label: 'Benachrichtigungen',
    unread: '{{count}} ungelesene Benachrichtigungen',
    unread_one: '{{count}} ungelesene Benachrichtigung',
  },
  drawer: {
    title: 'Benachrichtigungen',
    empty: 'Keine Benachrichtigungen',
    deleteAll: 'Alle löschen',
    confirmDeleteAll: 'Alle Ihre Benachrichtigungen löschen?',
    confirm: 'Löschen',
    cancel: 'Abbrechen',
    delete: 'Diese Benachrichtigung löschen',
    unread: 'Neu',
  },
  data: {
    total: 'Gesamt: {{count}}',
    imported: 'Importiert: {{count}}',
    errors: 'Fehler: {{count}}',
    warnings: 'Warnungen: {{count}}',
    openResult: 'Ergebnis öffnen',
    errorTitle: 'Ein Fehler ist aufgetreten',
  },
  result: {
    title: 'Ergebnis',
    errors: 'Fehler',
    warnings: 'Warnungen',
    row: 'Zeile',
    reason: 'Grund',
    close: 'Schließen',
  },
  toast: {
    newNotification: 'Neue Benachrichtigung',
  },
  processes: {
    running: '{{type}} läuft',
    queued: '{{type}} wartet auf den Start',
    progress: '{{progress}} von {{total}} erledigt',
    started: 'Gestartet {{when}}',
  },
  types: {
    PermissionAssigned: 'Berechtigung zugewiesen',
    ExportMembers: 'Export der Mitglieder',
    ExportTenants: 'Export der Einheiten',
    AdminReport: 'Bericht der Administratoren',
    BulkInsertUsers: 'Import von Benutzern',
    BulkInsertGroupMembers: 'Import von Gruppenmitgliedern',
    BulkInsertUsersWithTenant: 'Import von Benutzern mit Rollen je Einheit',
    BulkInsertGroupsWithTenant: 'Import von Gruppen mit Rollen je Einheit',
    BulkInsertPermisionRequestForTenant: 'Import von Berechtigungsanfragen',
    BulkInsertUserAndPermisionRequestForTenant: 'Import von Benutzern und Berechtigungsanfragen',
    BulkChangeUsernameEmail: 'Änderungen von Benutzernamen und E-Mail-Adressen',
    ExportAuthenticationLogs: 'Export der Anmeldeprotokolle',
    ExportSystemLogs: 'Export der Systemprotokolle',
  },
};
