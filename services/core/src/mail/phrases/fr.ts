import { factorChangeWords, labelled } from './labels.js';
import type { FactorChangePhrases, MailPhrases } from './types.js';

const REQUEST_TYPES = { Direct: 'Directe (la personne concernée)', Representative: 'Par un représentant' };
const RIGHTS = { Access: 'Accès', Information: 'Information', Correction: 'Rectification', TreatmentOpisition: 'Opposition au traitement', Supression: 'Effacement', DataPortability: 'Portabilité des données' };
const FACTOR_KINDS = { passkeys: 'vos clés d’accès', totp: 'l’application d’authentification', recoveryCodes: 'vos codes de récupération' };
const passkey = (name: string | undefined) => (name ? `La clé d’accès « ${name} »` : 'Une clé d’accès');
const FACTOR_CHANGES: FactorChangePhrases = {
  passkey_added: {
    subject: 'Une clé d’accès a été ajoutée à votre compte',
    intro: (p) => [`${passkey(p.passkeyName)} a été ajoutée à votre compte le ${p.date}. Elle permet désormais de se connecter.`],
  },
  passkey_removed: {
    subject: 'Une clé d’accès a été supprimée de votre compte',
    intro: (p) => [`${passkey(p.passkeyName)} a été supprimée de votre compte le ${p.date}. Elle ne permet plus de se connecter.`],
  },
  totp_added: {
    subject: 'Une application d’authentification a été configurée pour votre compte',
    intro: (p) => [`Une application d’authentification a été configurée comme second facteur de votre compte le ${p.date}.`],
  },
  totp_removed: {
    subject: 'L’application d’authentification a été retirée de votre compte',
    intro: (p) => [`L’application d’authentification a été retirée de votre compte le ${p.date} : ses codes ne fonctionnent plus.`],
  },
  recovery_codes_generated: {
    subject: 'De nouveaux codes de récupération ont été créés pour votre compte',
    intro: (p) => [`De nouveaux codes de récupération ont été créés pour votre compte le ${p.date}. Les codes précédents ne fonctionnent plus.`],
  },
  recovery_code_used: {
    subject: 'Un code de récupération a servi à se connecter à votre compte',
    intro: (p) => [`L’un de vos codes de récupération a servi à se connecter à votre compte le ${p.date}. Il ne peut plus être utilisé.`],
    outro: [
      'Si c’était vous, créez de nouveaux codes de récupération dans Ma sécurité lorsqu’il en reste peu.',
      'Sinon, quelqu’un connaît votre mot de passe et l’un de vos codes : changez immédiatement votre mot de passe, créez de nouveaux codes de récupération et contactez votre administrateur.',
    ],
  },
  factors_reset: {
    subject: 'Les facteurs de connexion de votre compte ont été réinitialisés',
    intro: (p) => [
      p.kinds
        ? `Un administrateur a supprimé de votre compte le ${p.date} : ${labelled(p.kinds, FACTOR_KINDS)}.`
        : `Un administrateur a réinitialisé les facteurs de connexion de votre compte le ${p.date}.`,
      'Vous pouvez en configurer de nouveaux dans Ma sécurité ; cela pourra vous être demandé à votre prochaine connexion.',
    ],
    outro: ['Si vous ne l’avez pas demandé, contactez immédiatement votre administrateur.'],
  },
};
const NOT_YOU = [
  "Si vous êtes à l'origine de ce changement, vous n'avez rien d'autre à faire.",
  'Sinon, changez immédiatement votre mot de passe, supprimez dans Ma sécurité ce que vous ne reconnaissez pas et contactez votre administrateur.',
];

export const fr: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    linkFallback: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
    automated: 'Ce message a été envoyé automatiquement ; merci de ne pas y répondre.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'Votre code de connexion',
      intro: () => ['Utilisez ce code pour terminer votre connexion :'],
      outro: (p) => [
        `Il expire dans ${p.minutes}.`,
        "Si vous n'avez pas demandé ce code, ignorez ce message. Ne communiquez jamais ce code à personne.",
      ],
    },
    'password-reset': {
      subject: () => 'Réinitialisez votre mot de passe',
      intro: (p) => [
        'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte.',
        `Choisissez un nouveau mot de passe en suivant le lien ci-dessous. Le lien expire dans ${p.minutes}.`,
      ],
      action: 'Réinitialiser mon mot de passe',
      outro: () => [
        "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.",
      ],
    },
    'password-reset-locked': {
      subject: () => 'Votre mot de passe ne peut pas être réinitialisé : votre compte est bloqué',
      intro: () => [
        'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte.',
        'Votre compte est bloqué : son mot de passe ne peut pas être réinitialisé.',
      ],
      outro: () => [
        'Contactez votre administrateur pour faire débloquer votre compte.',
        "Si vous n'êtes pas à l'origine de cette demande, vous pouvez ignorer ce message.",
      ],
    },
    'password-reset-pending': {
      subject: () => 'Votre mot de passe ne peut pas encore être réinitialisé',
      intro: () => [
        'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte.',
        "Votre compte est en attente d'approbation : vous pourrez choisir un mot de passe dès qu'un administrateur l'aura approuvé.",
      ],
      outro: () => [
        'Si vous attendez un accès, contactez votre administrateur.',
        "Si vous n'êtes pas à l'origine de cette demande, vous pouvez ignorer ce message.",
      ],
    },
    'password-reset-professional': {
      subject: () => 'Connectez-vous avec votre compte professionnel',
      intro: () => [
        'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte.',
        "Votre compte se connecte avec votre compte professionnel (Office 365) : il n'a pas ici de mot de passe à réinitialiser.",
      ],
      outro: () => [
        'Sur la page de connexion, choisissez votre compte professionnel. Si vous ne parvenez pas à vous connecter avec, contactez votre administrateur.',
        "Si vous n'êtes pas à l'origine de cette demande, vous pouvez ignorer ce message.",
      ],
    },
    invitation: {
      subject: (p) => `Invitation à rejoindre ${p.productName}`,
      intro: (p) => [
        `Vous êtes invité(e) à rejoindre ${p.productName}.`,
        "Acceptez l'invitation pour choisir votre mot de passe et activer votre compte.",
      ],
      action: "Accepter l'invitation",
      outro: () => ["Si vous n'attendiez pas cette invitation, vous pouvez ignorer ce message."],
    },
    'password-changed': {
      subject: () => 'Votre mot de passe a été modifié',
      intro: (p) => [`Le mot de passe de votre compte a été modifié le ${p.date}.`],
      outro: () => [
        "Si vous êtes à l'origine de ce changement, vous n'avez rien d'autre à faire.",
        'Sinon, réinitialisez votre mot de passe immédiatement et contactez votre administrateur.',
      ],
    },
    'email-changed': {
      subject: () => "L'adresse e-mail de votre compte a été modifiée",
      intro: (p) => [`L'adresse e-mail de votre compte a été modifiée le ${p.date}. Les messages concernant le compte ne seront plus envoyés à cette adresse.`],
      outro: () => [
        "Si vous avez demandé ce changement, vous n'avez rien d'autre à faire.",
        'Sinon, contactez immédiatement votre administrateur.',
      ],
    },
    'rights-request': {
      subject: (p) => `Demande d’exercice des droits sur les données ${p.reference}`,
      intro: (p) => [
        `Une demande d’exercice des droits sur les données personnelles a été envoyée depuis le portail le ${p.receivedAt}.`,
        `Référence : ${p.reference}`,
        `Nom de la personne concernée : ${p.fullName}`,
        `E-mail : ${p.email}`,
        `Envoyée par le compte : ${p.account}`,
        `Type de demande : ${labelled(p.requestType, REQUEST_TYPES)}`,
        `Représentant : ${p.representativeData || '—'}`,
        `Date de la demande : ${p.requestDate}`,
        `Droits à exercer : ${labelled(p.rights, RIGHTS)}`,
        `Précisions : ${p.requestDetails || '—'}`,
        `Pièces d’identité : ${p.documents}`,
      ],
      outro: () => ['Les pièces d’identité ne sont pas jointes à ce message : les administrateurs les téléchargent avec la demande depuis l’administration des identités.'],
    },
    'operation-request': {
      subject: (p) => `Approbation requise : rôles pour ${p.target} dans ${p.tenant}`,
      intro: (p) => [`${p.requester} demande des rôles pour ${p.target} dans ${p.tenant}.`, 'Votre approbation est requise avant qu’ils soient appliqués.'],
      outro: () => ['Ouvrez Mes clients, Demandes d’accès dans le portail pour approuver ou rejeter la demande.'],
    },
    'factor-changed': {
      subject: (p) => factorChangeWords(FACTOR_CHANGES, p.change).subject,
      intro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).intro(p),
      outro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).outro ?? NOT_YOU,
    },
  },
};
