import type { clientsBulk as en } from './en';

export const clientsBulk: typeof en = {
  button: 'Envio em massa',
  requests: 'Solicitações de acesso para usuários existentes',
  fullUsers: 'Novos usuários com suas solicitações de acesso',
  downloadTemplate: 'Baixar o modelo',
  upload: 'Enviar um arquivo',
  selectTenant: 'Selecione um locatário...',
  dialogTitle: 'Envio: {{label}}',
  dropHint: 'Clique ou arraste aqui um arquivo do Excel (.xlsx)',
  extensionNotAllowed: 'Extensão não permitida',
  send: 'Enviar',
  close: 'Fechar',
  success: 'Operação concluída com sucesso',
  background: 'Sua operação será processada em segundo plano. O resultado aparecerá nas suas notificações.',
  uploadError: 'Erro no envio',
  templateError: 'Não foi possível baixar o modelo',
};
