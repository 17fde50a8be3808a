import type { MailPhrases } from './types.js';

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
  },
};
