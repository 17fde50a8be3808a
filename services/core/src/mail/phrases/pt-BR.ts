import { factorChangeWords, labelled } from './labels.js';
import type { FactorChangePhrases, MailPhrases } from './types.js';

const REQUEST_TYPES = { Direct: 'Direta (o próprio interessado)', Representative: 'Por meio de um representante' };
const RIGHTS = { Access: 'Acesso', Information: 'Informação', Correction: 'Correção', TreatmentOpisition: 'Oposição ao tratamento', Supression: 'Eliminação', DataPortability: 'Portabilidade dos dados' };
const FACTOR_KINDS = { passkeys: 'suas chaves de acesso', totp: 'o aplicativo autenticador', recoveryCodes: 'seus códigos de recuperação' };
const passkey = (name: string | undefined) => (name ? `A chave de acesso “${name}”` : 'Uma chave de acesso');
const FACTOR_CHANGES: FactorChangePhrases = {
  passkey_added: {
    subject: 'Uma chave de acesso foi adicionada à sua conta',
    intro: (p) => [`${passkey(p.passkeyName)} foi adicionada à sua conta em ${p.date}. Agora ela pode ser usada para fazer login.`],
  },
  passkey_removed: {
    subject: 'Uma chave de acesso foi removida da sua conta',
    intro: (p) => [`${passkey(p.passkeyName)} foi removida da sua conta em ${p.date}. Ela não pode mais ser usada para fazer login.`],
  },
  totp_added: {
    subject: 'Um aplicativo autenticador foi configurado para sua conta',
    intro: (p) => [`Em ${p.date}, um aplicativo autenticador foi configurado como segundo fator da sua conta.`],
  },
  totp_removed: {
    subject: 'O aplicativo autenticador foi removido da sua conta',
    intro: (p) => [`O aplicativo autenticador foi removido da sua conta em ${p.date}: os códigos dele não funcionam mais.`],
  },
  recovery_codes_generated: {
    subject: 'Novos códigos de recuperação foram gerados para sua conta',
    intro: (p) => [`Em ${p.date}, novos códigos de recuperação foram gerados para sua conta. Os códigos anteriores não funcionam mais.`],
  },
  recovery_code_used: {
    subject: 'Um código de recuperação foi usado para entrar na sua conta',
    intro: (p) => [`Em ${p.date}, um dos seus códigos de recuperação foi usado para fazer login na sua conta. Ele não pode ser usado novamente.`],
    outro: [
      'Se foi você, gere novos códigos de recuperação em Minha segurança quando restarem poucos.',
      'Caso contrário, alguém conhece sua senha e um dos seus códigos: altere sua senha imediatamente, gere novos códigos de recuperação e entre em contato com o administrador.',
    ],
  },
  factors_reset: {
    subject: 'Os fatores de login da sua conta foram redefinidos',
    intro: (p) => [
      p.kinds
        ? `Em ${p.date}, um administrador removeu da sua conta: ${labelled(p.kinds, FACTOR_KINDS)}.`
        : `Em ${p.date}, um administrador redefiniu os fatores de login da sua conta.`,
      'Você pode configurar novos em Minha segurança; isso pode ser pedido no seu próximo login.',
    ],
    outro: ['Se você não pediu isso, entre em contato com o administrador imediatamente.'],
  },
};
const NOT_YOU = [
  'Se foi você quem fez essa alteração, não é preciso fazer mais nada.',
  'Caso contrário, altere sua senha imediatamente, remova em Minha segurança o que você não reconhecer e entre em contato com o administrador.',
];

export const ptBR: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Olá, ${name},` : 'Olá,'),
    linkFallback: 'Se o botão não funcionar, copie este link no seu navegador:',
    automated: 'Esta mensagem foi enviada automaticamente; por favor, não responda.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'Seu código de acesso',
      intro: () => ['Use este código para concluir o login:'],
      outro: (p) => [
        `Ele expira em ${p.minutes}.`,
        'Se você não solicitou este código, ignore esta mensagem. Nunca compartilhe este código com ninguém.',
      ],
    },
    'password-reset': {
      subject: () => 'Redefina sua senha',
      intro: (p) => [
        'Recebemos uma solicitação para redefinir a senha da sua conta.',
        `Escolha uma nova senha pelo link abaixo. O link expira em ${p.minutes}.`,
      ],
      action: 'Redefinir minha senha',
      outro: () => ['Se você não solicitou a redefinição de senha, ignore esta mensagem: sua senha continua a mesma.'],
    },
    'password-reset-locked': {
      subject: () => 'Não é possível redefinir sua senha: sua conta está bloqueada',
      intro: () => [
        'Recebemos uma solicitação para redefinir a senha da sua conta.',
        'Sua conta está bloqueada, por isso a senha não pode ser redefinida.',
      ],
      outro: () => [
        'Entre em contato com o seu administrador para desbloquear a conta.',
        'Se você não solicitou a redefinição de senha, pode ignorar esta mensagem.',
      ],
    },
    'password-reset-pending': {
      subject: () => 'Ainda não é possível redefinir sua senha',
      intro: () => [
        'Recebemos uma solicitação para redefinir a senha da sua conta.',
        'Sua conta está aguardando aprovação: você poderá escolher uma senha assim que um administrador a aprovar.',
      ],
      outro: () => [
        'Se você está aguardando acesso, entre em contato com o seu administrador.',
        'Se você não solicitou a redefinição de senha, pode ignorar esta mensagem.',
      ],
    },
    'password-reset-professional': {
      subject: () => 'Entre com sua conta profissional',
      intro: () => [
        'Recebemos uma solicitação para redefinir a senha da sua conta.',
        'Sua conta entra com a conta profissional (Office 365): aqui não há senha para redefinir.',
      ],
      outro: () => [
        'Na página de login, escolha sua conta profissional. Se não conseguir entrar com ela, entre em contato com o seu administrador.',
        'Se você não solicitou a redefinição de senha, pode ignorar esta mensagem.',
      ],
    },
    invitation: {
      subject: (p) => `Convite para acessar ${p.productName}`,
      intro: (p) => [
        `Você foi convidado(a) para acessar ${p.productName}.`,
        'Aceite o convite para definir sua senha e ativar sua conta.',
      ],
      action: 'Aceitar o convite',
      outro: () => ['Se você não esperava este convite, pode ignorar esta mensagem.'],
    },
    'password-changed': {
      subject: () => 'Sua senha foi alterada',
      intro: (p) => [`A senha da sua conta foi alterada em ${p.date}.`],
      outro: () => [
        'Se foi você quem fez essa alteração, não é preciso fazer mais nada.',
        'Caso contrário, redefina sua senha imediatamente e entre em contato com o administrador.',
      ],
    },
    'email-changed': {
      subject: () => 'O endereço de e-mail da sua conta foi alterado',
      intro: (p) => [`O endereço de e-mail da sua conta foi alterado em ${p.date}. As mensagens sobre a conta não serão mais enviadas para este endereço.`],
      outro: () => [
        'Se foi você quem pediu essa alteração, não é preciso fazer mais nada.',
        'Caso contrário, entre em contato com o administrador imediatamente.',
      ],
    },
    'rights-request': {
      subject: (p) => `Solicitação de exercício de direitos de proteção de dados ${p.reference}`,
      intro: (p) => [
        `Uma solicitação de exercício de direitos de proteção de dados foi enviada pelo portal em ${p.receivedAt}.`,
        `Referência: ${p.reference}`,
        `Nome do interessado: ${p.fullName}`,
        `E-mail: ${p.email}`,
        `Enviada pela conta: ${p.account}`,
        `Tipo de solicitação: ${labelled(p.requestType, REQUEST_TYPES)}`,
        `Representante: ${p.representativeData || '—'}`,
        `Data da solicitação: ${p.requestDate}`,
        `Direitos a exercer: ${labelled(p.rights, RIGHTS)}`,
        `Detalhes: ${p.requestDetails || '—'}`,
        `Documentos de identificação: ${p.documents}`,
      ],
      outro: () => ['Os documentos de identificação não estão anexados a esta mensagem: os administradores os baixam com a solicitação na administração de identidades.'],
    },
    'operation-request': {
      subject: (p) => `Aprovação necessária: funções para ${p.target} em ${p.tenant}`,
      intro: (p) => [`${p.requester} solicita funções para ${p.target} em ${p.tenant}.`, 'Sua aprovação é necessária antes que sejam aplicadas.'],
      outro: () => ['Abra Meus clientes, Solicitações de acesso no portal para aprovar ou rejeitar a solicitação.'],
    },
    'factor-changed': {
      subject: (p) => factorChangeWords(FACTOR_CHANGES, p.change).subject,
      intro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).intro(p),
      outro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).outro ?? NOT_YOU,
    },
  },
};
