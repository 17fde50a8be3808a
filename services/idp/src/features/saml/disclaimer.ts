import { page } from '../../oidc/pages.js';
import type { DisclaimersService } from '../disclaimers/service.js';
import { xmlEscape as escape } from './xml.js';

/** The latest disclaimer of an application, not yet accepted by the user signing in to it. */
export interface DisclaimerToAccept {
  version: number;
  text: string;
  textLanguage: string | null;
}

/** What the disclaimer page shows, and the pending sign-in its answer completes. */
export interface DisclaimerStep extends DisclaimerToAccept {
  pendingId: string;
  application: string;
}

/**
 * A SAML application's disclaimer gate: what an OpenID Connect application asks the gate API
 * (`/api/v1/profile/disclaimer/{userId}/{applicationName}`) with its user's token, the identity
 * provider asks on the SAML application's behalf, which cannot.
 */
export class SamlDisclaimers {
  constructor(private readonly disclaimers: DisclaimersService) {}

  /**
   * The application's latest disclaimer when the user has not accepted it (in their language when
   * it exists in it); undefined when the application has none, or the user accepted that version.
   */
  async toAccept(user: { id: string; language: string }, applicationName: string): Promise<DisclaimerToAccept | undefined> {
    const gate = await this.disclaimers.gate(...this.asked(user.id, applicationName), user.language);
    if (gate.accepted || gate.version === null) return undefined;
    return { version: gate.version, text: gate.text ?? '', textLanguage: gate.textLanguage };
  }

  /**
   * Records the user's acceptance of `version`, when it is still the latest: a version published
   * while the user was reading is not accepted unread (it is shown next).
   */
  async accept(user: { id: string; language: string }, applicationName: string, version: number): Promise<void> {
    const asked = this.asked(user.id, applicationName);
    const gate = await this.disclaimers.gate(...asked, user.language);
    if (!gate.accepted && gate.version === version) await this.disclaimers.acceptGate(...asked, user.language);
  }

  /** The gate's question as the application itself asks it about its user. */
  private asked(userId: string, applicationName: string) {
    return [{ accountId: userId, clientId: applicationName }, { userId, applicationName }] as const;
  }
}

/**
 * The page asking the user to accept the application's terms before it is told who they are: the
 * text, and a form posting the answer (accept or decline) back to the identity provider.
 */
export function disclaimerPage(step: DisclaimerStep, action: string): string {
  const title = `Conditions d’utilisation / Terms of use — ${step.application}`;
  const paragraphs = step.text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escape(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
  return page(
    title,
    `<h1>${escape(title)}</h1>
<p>Acceptez les conditions de ${escape(step.application)} pour continuer. / Accept the terms of ${escape(step.application)} to continue.</p>
<section${step.textLanguage ? ` lang="${escape(step.textLanguage)}"` : ''}>${paragraphs}</section>
<form method="post" action="${escape(action)}"><input type="hidden" name="state" value="${escape(step.pendingId)}"><input type="hidden" name="version" value="${step.version}"><button type="submit" name="decision" value="accept">Accepter / Accept</button> <button type="submit" name="decision" value="decline">Refuser / Decline</button></form>`,
  );
}
