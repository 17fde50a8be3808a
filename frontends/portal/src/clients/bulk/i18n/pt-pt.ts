import type { clientsBulk as en } from './en';

export const clientsBulk: typeof en = {
  button: 'Carregamento em massa',
  requests: 'Pedidos de acesso para utilizadores existentes',
  fullUsers: 'Novos utilizadores com os seus pedidos de acesso',
  downloadTemplate: 'Transferir o modelo',
  upload: 'Carregar um ficheiro',
  selectTenant: 'Selecione um inquilino...',
  dialogTitle: 'Carregamento: {{label}}',
  dropHint: 'Clique ou arraste para aqui um ficheiro Excel (.xlsx)',
  extensionNotAllowed: 'Extensão não permitida',
  send: 'Carregar',
  close: 'Fechar',
  success: 'Operação concluída com sucesso',
  background: 'A sua operação será processada em segundo plano. O resultado aparecerá nas suas notificações.',
  uploadError: 'Erro no carregamento',
  templateError: 'Não foi possível transferir o modelo',
};
