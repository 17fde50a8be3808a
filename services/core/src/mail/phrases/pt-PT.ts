import { factorChangeWords, labelled } from './labels.js';
import type { FactorChangePhrases, MailPhrases } from './types.js';

const REQUEST_TYPES = { Direct: 'Direto (o próprio interessado)', Representative: 'Através de um representante' };
const RIGHTS = { Access: 'Acesso', Information: 'Informação', Correction: 'Retificação', TreatmentOpisition: 'Oposição ao tratamento', Supression: 'Apagamento', DataPortability: 'Portabilidade dos dados' };
const FACTOR_KINDS = { passkeys: 'as suas chaves de acesso', totp: 'a aplicação de autenticação', recoveryCodes: 'os seus códigos de recuperação' };
const passkey = (name: string | undefined) => (name ? `A chave de acesso «${name}»` : 'Uma chave de acesso');
const FACTOR_CHANGES: FactorChangePhrases = {
  passkey_added: {
    subject: 'Foi adicionada uma chave de acesso à sua conta',
    intro: (p) => [`${passkey(p.passkeyName)} foi adicionada à sua conta a ${p.date}. A partir de agora permite iniciar sessão.`],
  },
  passkey_removed: {
    subject: 'Foi removida uma chave de acesso da sua conta',
    intro: (p) => [`${passkey(p.passkeyName)} foi removida da sua conta a ${p.date}. Já não permite iniciar sessão.`],
  },
  totp_added: {
    subject: 'Foi configurada uma aplicação de autenticação para a sua conta',
    intro: (p) => [`A ${p.date}, foi configurada uma aplicação de autenticação como segundo fator da sua conta.`],
  },
  totp_removed: {
    subject: 'A aplicação de autenticação foi removida da sua conta',
    intro: (p) => [`A aplicação de autenticação foi removida da sua conta a ${p.date}: os respetivos códigos deixaram de funcionar.`],
  },
  recovery_codes_generated: {
    subject: 'Foram gerados novos códigos de recuperação para a sua conta',
    intro: (p) => [`A ${p.date}, foram gerados novos códigos de recuperação para a sua conta. Os códigos anteriores deixaram de funcionar.`],
  },
  recovery_code_used: {
    subject: 'Foi usado um código de recuperação para entrar na sua conta',
    intro: (p) => [`A ${p.date}, um dos seus códigos de recuperação foi usado para iniciar sessão na sua conta. Não pode voltar a ser usado.`],
    outro: [
      'Se foi o próprio, gere novos códigos de recuperação em A minha segurança quando restarem poucos.',
      'Caso contrário, alguém conhece a sua palavra-passe e um dos seus códigos: altere imediatamente a sua palavra-passe, gere novos códigos de recuperação e contacte o seu administrador.',
    ],
  },
  factors_reset: {
    subject: 'Os fatores de início de sessão da sua conta foram repostos',
    intro: (p) => [
      p.kinds
        ? `A ${p.date}, um administrador removeu da sua conta: ${labelled(p.kinds, FACTOR_KINDS)}.`
        : `A ${p.date}, um administrador repôs os fatores de início de sessão da sua conta.`,
      'Pode configurar novos em A minha segurança; poderá ser-lhe pedido no próximo início de sessão.',
    ],
    outro: ['Se não o pediu, contacte imediatamente o seu administrador.'],
  },
};
const NOT_YOU = [
  'Se foi o próprio a fazer esta alteração, não tem de fazer mais nada.',
  'Caso contrário, altere imediatamente a sua palavra-passe, remova em A minha segurança o que não reconhecer e contacte o seu administrador.',
];

export const ptPT: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Olá ${name},` : 'Olá,'),
    linkFallback: 'Se o botão não funcionar, copie esta ligação para o seu navegador:',
    automated: 'Esta mensagem foi enviada automaticamente; por favor, não responda.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'O seu código de início de sessão',
      intro: () => ['Utilize este código para concluir o início de sessão:'],
      outro: (p) => [
        `Expira dentro de ${p.minutes}.`,
        'Se não pediu este código, ignore esta mensagem. Nunca partilhe este código com ninguém.',
      ],
    },
    'password-reset': {
      subject: () => 'Reponha a sua palavra-passe',
      intro: (p) => [
        'Recebemos um pedido para repor a palavra-passe da sua conta.',
        `Escolha uma nova palavra-passe através da ligação abaixo. A ligação expira dentro de ${p.minutes}.`,
      ],
      action: 'Repor a minha palavra-passe',
      outro: () => ['Se não pediu a reposição da palavra-passe, ignore esta mensagem: a sua palavra-passe mantém-se inalterada.'],
    },
    'password-reset-locked': {
      subject: () => 'Não é possível repor a sua palavra-passe: a sua conta está bloqueada',
      intro: () => [
        'Recebemos um pedido para repor a palavra-passe da sua conta.',
        'A sua conta está bloqueada, pelo que a palavra-passe não pode ser reposta.',
      ],
      outro: () => [
        'Contacte o seu administrador para desbloquear a conta.',
        'Se não pediu a reposição da palavra-passe, pode ignorar esta mensagem.',
      ],
    },
    'password-reset-pending': {
      subject: () => 'Ainda não é possível repor a sua palavra-passe',
      intro: () => [
        'Recebemos um pedido para repor a palavra-passe da sua conta.',
        'A sua conta aguarda aprovação: poderá escolher uma palavra-passe assim que um administrador a aprovar.',
      ],
      outro: () => [
        'Se está à espera de acesso, contacte o seu administrador.',
        'Se não pediu a reposição da palavra-passe, pode ignorar esta mensagem.',
      ],
    },
    'password-reset-professional': {
      subject: () => 'Inicie sessão com a sua conta profissional',
      intro: () => [
        'Recebemos um pedido para repor a palavra-passe da sua conta.',
        'A sua conta inicia sessão com a conta profissional (Office 365): aqui não existe palavra-passe para repor.',
      ],
      outro: () => [
        'Na página de início de sessão, escolha a sua conta profissional. Se não conseguir iniciar sessão com ela, contacte o seu administrador.',
        'Se não pediu a reposição da palavra-passe, pode ignorar esta mensagem.',
      ],
    },
    invitation: {
      subject: (p) => `Convite para aceder a ${p.productName}`,
      intro: (p) => [
        `Foi convidado(a) para aceder a ${p.productName}.`,
        'Aceite o convite para definir a sua palavra-passe e ativar a sua conta.',
      ],
      action: 'Aceitar o convite',
      outro: () => ['Se não estava à espera deste convite, pode ignorar esta mensagem.'],
    },
    'password-changed': {
      subject: () => 'A sua palavra-passe foi alterada',
      intro: (p) => [`A palavra-passe da sua conta foi alterada a ${p.date}.`],
      outro: () => [
        'Se foi o próprio a fazer esta alteração, não tem de fazer mais nada.',
        'Caso contrário, reponha imediatamente a sua palavra-passe e contacte o seu administrador.',
      ],
    },
    'email-changed': {
      subject: () => 'O endereço de e-mail da sua conta foi alterado',
      intro: (p) => [`O endereço de e-mail da sua conta foi alterado a ${p.date}. As mensagens sobre a conta deixam de ser enviadas para este endereço.`],
      outro: () => [
        'Se foi o próprio a pedir esta alteração, não tem de fazer mais nada.',
        'Caso contrário, contacte imediatamente o seu administrador.',
      ],
    },
    'rights-request': {
      subject: (p) => `Pedido de exercício de direitos de proteção de dados ${p.reference}`,
      intro: (p) => [
        `Foi enviado um pedido de exercício de direitos de proteção de dados a partir do portal em ${p.receivedAt}.`,
        `Referência: ${p.reference}`,
        `Nome do interessado: ${p.fullName}`,
        `E-mail: ${p.email}`,
        `Enviado pela conta: ${p.account}`,
        `Tipo de pedido: ${labelled(p.requestType, REQUEST_TYPES)}`,
        `Representante: ${p.representativeData || '—'}`,
        `Data do pedido: ${p.requestDate}`,
        `Direitos a exercer: ${labelled(p.rights, RIGHTS)}`,
        `Detalhes: ${p.requestDetails || '—'}`,
        `Documentos de identificação: ${p.documents}`,
      ],
      outro: () => ['Os documentos de identificação não estão anexados a esta mensagem: os administradores descarregam-nos com o pedido a partir da administração de identidades.'],
    },
    'operation-request': {
      subject: (p) => `Aprovação necessária: funções para ${p.target} em ${p.tenant}`,
      intro: (p) => [`${p.requester} pede funções para ${p.target} em ${p.tenant}.`, 'É necessária a sua aprovação antes de serem aplicadas.'],
      outro: () => ['Abra Os meus clientes, Pedidos de acesso no portal para aprovar ou rejeitar o pedido.'],
    },
    'factor-changed': {
      subject: (p) => factorChangeWords(FACTOR_CHANGES, p.change).subject,
      intro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).intro(p),
      outro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).outro ?? NOT_YOU,
    },
  },
};
