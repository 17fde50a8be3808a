import type { ScimPhrases } from './en';

export const ptPT: ScimPhrases = {
  tab: {
    intro:
      'Com o aprovisionamento SCIM, um diretório como o Microsoft Entra ID ou um sistema de RH cria, atualiza, desativa e elimina os utilizadores e grupos de uma área, através do URL base do SCIM 2.0 abaixo e de um token emitido aqui.',
    reach: 'Cada token só alcança os utilizadores e grupos da sua própria área. Os utilizadores e grupos com funções de administração ficam fora do seu alcance.',
    baseUrl: 'URL base do SCIM',
    copyUrl: 'Copiar o URL base do SCIM',
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
    lastUsedAt: 'Última utilização',
    never: 'Nunca',
    expired: 'Expirado',
    revoke: 'Revogar',
    revokeToken: 'Revogar o token {{name}}',
    revokeConfirm: 'Revogar o token {{name}}?',
    revokeWarning: 'O aprovisionamento com ele para de imediato: a área {{area}} deixa de ser sincronizada através deste token. Esta ação não pode ser anulada.',
    revoked: 'O token {{name}} foi revogado',
    issued: 'O token {{name}} foi emitido',
  },
  form: {
    title: 'Novo token SCIM',
    name: 'Nome',
    nameHelp: 'Distingue os tokens, por exemplo, pelo sistema que o utiliza.',
    nameRequired: 'Introduza um nome para o token',
    tooLong: 'No máximo {{max}} caracteres',
    area: 'Área',
    areaHelp: 'A área cujos utilizadores e grupos o token aprovisiona.',
    areaRequired: 'Escolha uma área',
    expiresAt: 'Expiração',
    expiresAtPlaceholder: 'Daqui a um ano',
    expiryHelp: 'O token é recusado a partir deste dia. Vazio: daqui a um ano; no máximo dois anos depois.',
    expiryInPast: 'Escolha um dia posterior a hoje',
  },
  issued: {
    title: 'Token SCIM {{name}}',
    warning:
      'Este é o token que o cliente SCIM (Microsoft Entra ID, um sistema de RH) envia como token de portador, juntamente com o URL base do SCIM. Guarde-o com cuidado: depois de fechar esta janela, não o voltará a ver.',
    value: 'Token SCIM',
    baseUrl: 'URL base do SCIM',
    area: 'Área',
    expiresAt: 'Expira em',
  },
  copy: {
    copy: 'Copiar',
    tokenCopied: 'Token copiado para a área de transferência!',
    urlCopied: 'URL base do SCIM copiado para a área de transferência!',
    failed: 'Não foi possível copiar: selecione o texto e copie-o manualmente.',
  },
};
