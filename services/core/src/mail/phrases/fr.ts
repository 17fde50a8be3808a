import { labelled } from './labels.js';
import type { MailPhrases } from './types.js';

const REQUEST_TYPES = { Direct: 'Directe (la personne concernée)', Representative: 'Par un représentant' };
const RIGHTS = { Access: 'Accès', Information: 'Information', Correction: 'Rectification', TreatmentOpisition: 'Opposition au traitement', Supression: 'Effacement', DataPortability: 'Portabilité des données' };

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
  },
};
