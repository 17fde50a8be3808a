import type { NotificationsPhrases } from './en';

export const fr: NotificationsPhrases = {
  button: {
    label: 'Notifications',
    unread: '{{count}} notifications non lues',
    unread_one: '{{count}} notification non lue',
  },
  drawer: {
    title: 'Notifications',
    empty: 'Aucune notification',
    deleteAll: 'Tout supprimer',
    confirmDeleteAll: 'Supprimer toutes vos notifications ?',
    confirm: 'Supprimer',
    cancel: 'Annuler',
    delete: 'Supprimer cette notification',
    unread: 'Nouveau',
  },
  data: {
    total: 'Total : {{count}}',
    imported: 'Importés : {{count}}',
    errors: 'Erreurs : {{count}}',
    warnings: 'Avertissements : {{count}}',
    openResult: 'Ouvrir le résultat',
    errorTitle: 'Une erreur s’est produite',
  },
  result: {
    title: 'Résultat',
    errors: 'Erreurs',
    warnings: 'Avertissements',
    row: 'Ligne',
    reason: 'Motif',
    close: 'Fermer',
  },
  toast: {
    newNotification: 'Nouvelle notification',
  },
  processes: {
    running: '{{type}} en cours',
    queued: '{{type}} en attente de démarrage',
    progress: '{{progress}} sur {{total}} traités',
    started: 'Démarré {{when}}',
  },
  types: {
    PermissionAssigned: 'Permission attribuée',
    ExportMembers: 'Export des membres',
    ExportTenants: 'Export des entités',
    AdminReport: 'Rapport des administrateurs',
    BulkInsertUsers: 'Import d’utilisateurs',
    BulkInsertGroupMembers: 'Import de membres de groupe',
    BulkInsertUsersWithTenant: 'Import d’utilisateurs avec rôles par entité',
    BulkInsertGroupsWithTenant: 'Import de groupes avec rôles par entité',
    BulkInsertPermisionRequestForTenant: 'Import de demandes de permission',
    BulkInsertUserAndPermisionRequestForTenant: 'Import d’utilisateurs et de demandes de permission',
    BulkChangeUsernameEmail: 'Changements de noms d’utilisateur et d’e-mails',
    ExportAuthenticationLogs: 'Export des journaux d’authentification',
    ExportSystemLogs: 'Export des journaux système',
  },
};
