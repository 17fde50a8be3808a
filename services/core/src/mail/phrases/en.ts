import { factorChangeWords, labelled } from './labels.js';
import type { FactorChangePhrases, MailPhrases } from './types.js';

const REQUEST_TYPES = { Direct: 'Direct (the interested person)', Representative: 'Through a representative' };
const RIGHTS = { Access: 'Access', Information: 'Information', Correction: 'Rectification', TreatmentOpisition: 'Objection to processing', Supression: 'Erasure', DataPortability: 'Data portability' };
const FACTOR_KINDS = { passkeys: 'your passkeys', totp: 'the authenticator app', recoveryCodes: 'your recovery codes' };
const passkey = (name: string | undefined) => (name ? `The passkey “${name}”` : 'A passkey');
const FACTOR_CHANGES: FactorChangePhrases = {
  passkey_added: {
    subject: 'A passkey was added to your account',
    intro: (p) => [`${passkey(p.passkeyName)} was added to your account on ${p.date}. It can now be used to sign in.`],
  },
  passkey_removed: {
    subject: 'A passkey was removed from your account',
    intro: (p) => [`${passkey(p.passkeyName)} was removed from your account on ${p.date}. It can no longer be used to sign in.`],
  },
  totp_added: {
    subject: 'An authenticator app was set up for your account',
    intro: (p) => [`An authenticator app was set up as a second factor for your account on ${p.date}.`],
  },
  totp_removed: {
    subject: 'The authenticator app was removed from your account',
    intro: (p) => [`The authenticator app was removed from your account on ${p.date}: its codes no longer work.`],
  },
  recovery_codes_generated: {
    subject: 'New recovery codes were made for your account',
    intro: (p) => [`New recovery codes were made for your account on ${p.date}. The previous codes no longer work.`],
  },
  recovery_code_used: {
    subject: 'A recovery code was used to sign in to your account',
    intro: (p) => [`One of your recovery codes was used to sign in to your account on ${p.date}. It cannot be used again.`],
    outro: [
      'If it was you, make new recovery codes in My security when few are left.',
      'If it was not you, someone knows your password and one of your codes: change your password at once, make new recovery codes and contact your administrator.',
    ],
  },
  factors_reset: {
    subject: 'The sign-in factors of your account were reset',
    intro: (p) => [
      p.kinds ? `An administrator removed from your account on ${p.date}: ${labelled(p.kinds, FACTOR_KINDS)}.` : `An administrator reset the sign-in factors of your account on ${p.date}.`,
      'You can set up new ones in My security; you may be asked to at your next sign-in.',
    ],
    outro: ['If you did not ask for this, contact your administrator at once.'],
  },
};
const NOT_YOU = [
  'If you made this change, there is nothing more to do.',
  'If it was not you, change your password at once, remove in My security whatever you do not recognise, and contact your administrator.',
];

export const en: MailPhrases = {
  common: {
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    linkFallback: 'If the button does not work, copy this link into your browser:',
    automated: 'This message was sent automatically; please do not reply.',
  },
  templates: {
    'sign-in-code': {
      subject: () => 'Your sign-in code',
      intro: () => ['Use this code to finish signing in:'],
      outro: (p) => [
        `It expires in ${p.minutes}.`,
        'If you did not ask for this code, ignore this message. Never share this code with anyone.',
      ],
    },
    'password-reset': {
      subject: () => 'Reset your password',
      intro: (p) => [
        'We received a request to reset the password of your account.',
        `Choose a new password by following the link below. The link expires in ${p.minutes}.`,
      ],
      action: 'Reset my password',
      outro: () => ['If you did not ask for a password reset, ignore this message: your password stays unchanged.'],
    },
    'password-reset-locked': {
      subject: () => 'Your password cannot be reset: your account is locked',
      intro: () => [
        'We received a request to reset the password of your account.',
        'Your account is locked, so its password cannot be reset.',
      ],
      outro: () => [
        'Contact your administrator to have your account unlocked.',
        'If you did not ask for a password reset, you can ignore this message.',
      ],
    },
    'password-reset-pending': {
      subject: () => 'Your password cannot be reset yet',
      intro: () => [
        'We received a request to reset the password of your account.',
        'Your account is waiting for approval: you can choose a password once an administrator has approved it.',
      ],
      outro: () => [
        'If you are waiting for access, contact your administrator.',
        'If you did not ask for a password reset, you can ignore this message.',
      ],
    },
    'password-reset-professional': {
      subject: () => 'Sign in with your professional account',
      intro: () => [
        'We received a request to reset the password of your account.',
        'Your account signs in with your professional account (Office 365): it has no password here to reset.',
      ],
      outro: () => [
        'On the sign-in page, choose your professional account. If you cannot sign in with it, contact your administrator.',
        'If you did not ask for a password reset, you can ignore this message.',
      ],
    },
    invitation: {
      subject: (p) => `You are invited to ${p.productName}`,
      intro: (p) => [
        `You have been invited to join ${p.productName}.`,
        'Accept the invitation to choose your password and activate your account.',
      ],
      action: 'Accept the invitation',
      outro: () => ['If you were not expecting this invitation, you can ignore this message.'],
    },
    'password-changed': {
      subject: () => 'Your password was changed',
      intro: (p) => [`The password of your account was changed on ${p.date}.`],
      outro: () => [
        'If you made this change, there is nothing more to do.',
        'If you did not, reset your password at once and contact your administrator.',
      ],
    },
    'email-changed': {
      subject: () => 'The e-mail address of your account was changed',
      intro: (p) => [`The e-mail address of your account was changed on ${p.date}. Messages about the account no longer come to this address.`],
      outro: () => [
        'If you asked for this change, there is nothing more to do.',
        'If you did not, contact your administrator at once.',
      ],
    },
    'rights-request': {
      subject: (p) => `Data protection rights request ${p.reference}`,
      intro: (p) => [
        `A data protection rights request was sent from the portal on ${p.receivedAt}.`,
        `Reference: ${p.reference}`,
        `Name of the interested person: ${p.fullName}`,
        `E-mail: ${p.email}`,
        `Sent by the account: ${p.account}`,
        `Request type: ${labelled(p.requestType, REQUEST_TYPES)}`,
        `Representative: ${p.representativeData || '—'}`,
        `Request date: ${p.requestDate}`,
        `Rights to exercise: ${labelled(p.rights, RIGHTS)}`,
        `Details: ${p.requestDetails || '—'}`,
        `Identification documents: ${p.documents}`,
      ],
      outro: () => ['The identification documents are not attached to this message: administrators download them with the request from the identity administration.'],
    },
    'operation-request': {
      subject: (p) => `Approval needed: roles for ${p.target} in ${p.tenant}`,
      intro: (p) => [`${p.requester} asks for roles for ${p.target} in ${p.tenant}.`, 'Your approval is needed before they are applied.'],
      outro: () => ['Open My Clients, Access Requests in the portal to approve or reject the request.'],
    },
    'factor-changed': {
      subject: (p) => factorChangeWords(FACTOR_CHANGES, p.change).subject,
      intro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).intro(p),
      outro: (p) => factorChangeWords(FACTOR_CHANGES, p.change).outro ?? NOT_YOU,
    },
  },
};
