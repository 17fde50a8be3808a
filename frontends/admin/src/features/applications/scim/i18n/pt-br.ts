import type { ScimPhrases } from './en';

export const ptBR: ScimPhrases = {
  tab: {
    intro:
      'Com o provisionamento SCIM, um diretório como o Microsoft Entra ID ou um sistema de RH cria, atualiza, desativa e exclui os usuários e grupos de uma área, por meio da URL base do SCIM 2.0 abaixo e de um token emitido aqui.',
    reach: 'Cada token alcança somente os usuários e grupos da sua própria área. Usuários e grupos com papéis de administração ficam fora do seu alcance.',
    baseUrl: 'URL base do SCIM',
    copyUrl: 'Copiar a URL base do SCIM',
    tokens: 'Tokens SCIM',
    newToken: 'Novo token',
  },
  tokens: {
    name: 'Nome',
    area: 'Área',
    hint: 'Token',
    createdBy: 'Criado por',
    createdAt: 'Criado em',
    expiresAt: 'Expira em',
    lastUsedAt: 'Último uso',
    never: 'Nunca',
    expired: 'Expirado',
    revoke: 'Revogar',
    revokeToken: 'Revogar o token {{name}}',
    revokeConfirm: 'Revogar o token {{name}}?',
    revokeWarning: 'O provisionamento com ele para imediatamente: a área {{area}} deixa de ser sincronizada por este token. Esta ação não pode ser desfeita.',
    revoked: 'O token {{name}} foi revogado',
    issued: 'O token {{name}} foi emitido',
  },
  form: {
    title: 'Novo token SCIM',
    name: 'Nome',
    nameHelp: 'Distingue os tokens, por exemplo, pelo sistema que o usa.',
    nameRequired: 'Digite um nome para o token',
    tooLong: 'No máximo {{max}} caracteres',
    area: 'Área',
    areaHelp: 'A área cujos usuários e grupos o token provisiona.',
    areaRequired: 'Escolha uma área',
    expiresAt: 'Expiração',
    expiresAtPlaceholder: 'Daqui a um ano',
    expiryHelp: 'O token é recusado a partir deste dia. Vazio: daqui a um ano; no máximo dois anos depois.',
    expiryInPast: 'Escolha um dia posterior a hoje',
  },
  issued: {
    title: 'Token SCIM {{name}}',
    warning:
      'Este é o token que o cliente SCIM (Microsoft Entra ID, um sistema de RH) envia como token de portador, junto com a URL base do SCIM. Guarde-o com cuidado: depois de fechar esta janela, você não o verá novamente.',
    value: 'Token SCIM',
    baseUrl: 'URL base do SCIM',
    area: 'Área',
    expiresAt: 'Expira em',
  },
  copy: {
    copy: 'Copiar',
    tokenCopied: 'Token copiado para a área de transferência!',
    urlCopied: 'URL base do SCIM copiada para a área de transferência!',
    failed: 'Não foi possível copiar: selecione o texto e copie-o você mesmo.',
  },
};
