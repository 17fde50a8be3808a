import type { NotificationsPhrases } from './en';

export const es: NotificationsPhrases = {
  button: {
    label: 'Notificaciones',
    unread: '{{count}} notificaciones sin leer',
    unread_one: '{{count}} notificación sin leer',
  },
  drawer: {
    title: 'Notificaciones',
    empty: 'No hay notificaciones',
    deleteAll: 'Eliminar todas',
    confirmDeleteAll: '¿Eliminar todas sus notificaciones?',
    confirm: 'Eliminar',
    cancel: 'Cancelar',
    delete: 'Eliminar esta notificación',
    unread: 'Nueva',
  },
  data: {
    total: 'Total: {{count}}',
    imported: 'Importados: {{count}}',
    errors: 'Errores: {{count}}',
    warnings: 'Advertencias: {{count}}',
    openResult: 'Abrir resultado',
    errorTitle: 'Se ha producido un error',
  },
  result: {
    title: 'Resultado',
    errors: 'Errores',
    warnings: 'Advertencias',
    row: 'Fila',
    reason: 'Motivo',
    close: 'Cerrar',
  },
  toast: {
    newNotification: 'Nueva notificación',
  },
  processes: {
    running: '{{type}} en curso',
    queued: '{{type}} a la espera de comenzar',
    progress: '{{progress}} de {{total}} procesados',
    started: 'Iniciado {{when}}',
  },
  types: {
    PermissionAssigned: 'Permiso asignado',
    ExportMembers: 'Exportación de miembros',
    ExportTenants: 'Exportación de entidades',
    AdminReport: 'Informe de administradores',
    BulkInsertUsers: 'Importación de usuarios',
    BulkInsertGroupMembers: 'Importación de miembros de grupo',
    BulkInsertUsersWithTenant: 'Importación de usuarios con roles por entidad',
    BulkInsertGroupsWithTenant: 'Importación de grupos con roles por entidad',
    BulkInsertPermisionRequestForTenant: 'Importación de solicitudes de permiso',
    BulkInsertUserAndPermisionRequestForTenant: 'Importación de usuarios y solicitudes de permiso',
    BulkChangeUsernameEmail: 'Cambios de nombre de usuario y correo',
    ExportAuthenticationLogs: 'Exportación de registros de autenticación',
    ExportSystemLogs: 'Exportación de registros del sistema',
  },
};
