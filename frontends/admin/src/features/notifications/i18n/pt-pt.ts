import type { NotificationsPhrases } from './en';

export const ptPT: NotificationsPhrases = {
  button: {
    label: 'Notificações',
    unread: '{{count}} notificações por ler',
    unread_one: '{{count}} notificação por ler',
  },
  drawer: {
    title: 'Notificações',
    empty: 'Sem notificações',
    deleteAll: 'Eliminar todas',
    confirmDeleteAll: 'Eliminar todas as suas notificações?',
    confirm: 'Eliminar',
    cancel: 'Cancelar',
    delete: 'Eliminar esta notificação',
    unread: 'Nova',
  },
  data: {
    total: 'Total: {{count}}',
    imported: 'Importados: {{count}}',
    errors: 'Erros: {{count}}',
    warnings: 'Avisos: {{count}}',
    openResult: 'Abrir resultado',
    errorTitle: 'Ocorreu um erro',
  },
  result: {
    title: 'Resultado',
    errors: 'Erros',
    warnings: 'Avisos',
    row: 'Linha',
    reason: 'Motivo',
    close: 'Fechar',
  },
  toast: {
    newNotification: 'Nova notificação',
  },
  processes: {
    running: '{{type}} em curso',
    queued: '{{type}} a aguardar início',
    progress: '{{progress}} de {{total}} processados',
    started: 'Iniciado {{when}}',
  },
  types: {
    PermissionAssigned: 'Permissão atribuída',
    ExportMembers: 'Exportação de membros',
    ExportTenants: 'Exportação de entidades',
    AdminReport: 'Relatório de administradores',
    BulkInsertUsers: 'Importação de utilizadores',
    BulkInsertGroupMembers: 'Importação de membros de grupo',
    BulkInsertUsersWithTenant: 'Importação de utilizadores com funções por entidade',
    BulkInsertGroupsWithTenant: 'Importação de grupos com funções por entidade',
    BulkInsertPermisionRequestForTenant: 'Importação de pedidos de permissão',
    BulkInsertUserAndPermisionRequestForTenant: 'Importação de utilizadores e pedidos de permissão',
    BulkChangeUsernameEmail: 'Alterações de nomes de utilizador e e-mails',
    ExportAuthenticationLogs: 'Exportação dos registos de autenticação',
    ExportSystemLogs: 'Exportação dos registos do sistema',
  },
};
