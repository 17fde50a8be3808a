import { labelled } from './labels.js';
import type { MailPhrases } from './types.js';

const REQUEST_TYPES = { Direct: 'Direct (the interested person)', Representative: 'Through a representative' };
const RIGHTS = { Access: 'Access', Information: 'Information', Correction: 'Rectification', TreatmentOpisition: 'Objection to processing', Supression: 'Erasure', DataPortability: 'Data portability' };

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
  },
};
