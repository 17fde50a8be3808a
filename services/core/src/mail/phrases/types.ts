import type { FactorChange } from '../factor-changes.js';

/** The parameters each mail template needs. */
export interface MailParams {
  'sign-in-code': { name: string; code: string; minutes: number };
  'password-reset': { name: string; link: string; minutes: number };
  /** The answer to a reset request for a locked account: no link, ask an administrator. */
  'password-reset-locked': { name: string };
  /** The answer to a reset request for an account pending approval (a draft): no link yet. */
  'password-reset-pending': { name: string };
  /** The answer to a reset request for a group user, who signs in with the professional account only. */
  'password-reset-professional': { name: string };
  invitation: { name: string; link: string; productName: string };
  /** A Date is written out in the reader's language, in UTC; a string is shown as given. */
  'password-changed': { name: string; date: Date | string };
  /** Sent to the previous address when an account's e-mail address is changed. */
  'email-changed': { name: string; date: Date | string };
  /**
   * A data-protection rights request, to the configured data-protection address: a summary, the
   * identification documents staying in the product. `rights` and `requestType` are codes the
   * phrases write in the mail's language; empty optional texts are shown as a dash.
   */
  'rights-request': {
    reference: string;
    fullName: string;
    email: string;
    account: string;
    requestType: string;
    representativeData: string;
    /** DD/MM/YYYY, as the requester gave it. */
    requestDate: string;
    /** Codes separated by `, `. */
    rights: string;
    requestDetails: string;
    /** The documents' names and sizes. */
    documents: string;
    receivedAt: Date | string;
  };
  /** To each approver of a tenant when an operation request waits for them. */
  'operation-request': { name: string; requester: string; target: string; tenant: string };
  /**
   * A change of the user's sign-in factors, written in the reader's language from its code; the
   * passkey's name for passkey changes, and for a reset the kinds of factor removed (codes of
   * FACTOR_KINDS separated by `, `).
   */
  'factor-changed': { name: string; change: FactorChange; date: Date | string; passkeyName?: string; kinds?: string };
}

export type MailTemplate = keyof MailParams;

export const MAIL_TEMPLATES = [
  'sign-in-code',
  'password-reset',
  'password-reset-locked',
  'password-reset-pending',
  'password-reset-professional',
  'invitation',
  'password-changed',
  'email-changed',
  'rights-request',
  'operation-request',
  'factor-changed',
] as const satisfies readonly MailTemplate[];

/**
 * Parameters as the phrases see them: every value already written for the reader's language
 * (minutes as "15 minutos", dates spelled out), so translators only place them in sentences.
 */
type Shown<P> = { [K in keyof P]: string };

interface TemplatePhrases<P> {
  subject: (p: Shown<P>) => string;
  /** Paragraphs before the code or the button. */
  intro: (p: Shown<P>) => string[];
  /** Paragraphs after it. */
  outro: (p: Shown<P>) => string[];
}

// A template with a link gets a button, so it needs that button's label.
export type Phrases<P> = TemplatePhrases<P> & (P extends { link: string } ? { action: string } : unknown);

/** What a language says of one factor change: the subject, what happened, and the advice when it is not the usual one. */
export interface FactorChangeWords {
  subject: string;
  intro: (p: Shown<MailParams['factor-changed']>) => string[];
  outro?: string[];
}

/** Every factor change in one language: a change the product adds and a language forgets fails to compile. */
export type FactorChangePhrases = { [C in FactorChange]: FactorChangeWords };

/**
 * The shape every language fills in. Parameters come from MailParams, so a phrase cannot use a
 * parameter its template does not have; a missing language, template or phrase fails to compile.
 */
export interface MailPhrases {
  common: {
    greeting: (name: string) => string;
    linkFallback: string;
    automated: string;
  };
  templates: { [T in MailTemplate]: Phrases<MailParams[T]> };
}
