import type { NotificationsPhrases } from './en';

export const ptBR: NotificationsPhrases = {
  button: {
    label: 'Notificações',
    unread: '{{count}} notificações não lidas',
    unread_one: '{{count}} notificação não lida',
  },
  drawer: {
    title: 'Notificações',
    empty: 'Nenhuma notificação',
    deleteAll: 'Excluir todas',
    confirmDeleteAll: 'Excluir todas as suas notificações?',
    confirm: 'Excluir',
    cancel: 'Cancelar',
    delete: 'Excluir esta notificação',
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
    running: '{{type}} em andamento',
    queued: '{{type}} aguardando início',
    progress: '{{progress}} de {{total}} processados',
    started: 'Iniciado {{when}}',
  },
  types: {
    PermissionAssigned: 'Permissão atribuída',
    ExportMembers: 'Exportação de membros',
    ExportTenants: 'Exportação de entidades',
    AdminReport: 'Relatório de administradores',
    BulkInsertUsers: 'Importação de usuários',
    BulkInsertGroupMembers: 'Importação de membros de grupo',
    BulkInsertUsersWithTenant: 'Importação de usuários com papéis por entidade',
    BulkInsertGroupsWithTenant: 'Importação de grupos com papéis por entidade',
    BulkInsertPermisionRequestForTenant: 'Importação de solicitações de permissão',
    BulkInsertUserAndPermisionRequestForTenant: 'Importação de usuários e solicitações de permissão',
    BulkChangeUsernameEmail: 'Alterações de nomes de usuário e e-mails',
    ExportAuthenticationLogs: 'Exportação dos logs de autenticação',
    ExportSystemLogs: 'Exportação dos logs do sistema',
  },
};
