import { timingSafeEqual } from 'node:crypto';
import { inSpan, type AppContext } from '@gatehouse/core';
import { interactionUrl } from '../../oidc/provider.js';
import { externalLoginRoutes } from '@gatehouse/contracts';
import { safeReturnUrl } from '../account/interaction.js';
import type { Resume } from '../account/sign-in-state.js';
import { LoginStates, pkcePair, type LoginState } from './login-state.js';
import { MicrosoftError, type MicrosoftClient, type MicrosoftIdentity } from './microsoft-client.js';
import { MicrosoftSignIn, UNKNOWN_USER, logMicrosoftAttempt, type ExternalSignInRequest } from './microsoft-sign-in.js';

/** The spec's name of the Microsoft provider in `?provider=`. */
export const PROVIDER = 'mslive';
/** Where Microsoft sends the browser back; registered as the app's redirect URI. */
export const CALLBACK_PATH = externalLoginRoutes.callback.path;
/** Upstream answers the user caused (cancelled, consent refused) rather than a fault at Microsoft. */
const USER_ERRORS = new Set(['access_denied', 'consent_required', 'interaction_required', 'login_required', 'account_selection_required']);

/** The provider interaction this browser is in (from its cookie), as far as this flow cares. */
export interface PendingSignIn {
  uid: string;
  prompt: string;
  clientId?: string;
  redirectUri?: string;
}

/** Who is calling, for the authentication log. */
export interface Caller {
  ip: string;
  userAgent: string;
  language: string;
}

/** A sign-in that cannot go on: the page to show, `code` being the i18n key of its message. */
export interface PageOutcome {
  kind: 'page';
  status: number;
  code: string;
  /** A second message under `code`'s, with the same params (the lock under "User Is Locked Out"). */
  detail?: string;
  params?: Record<string, unknown>;
  /** Back to the sign-in page, while its interaction lives. */
  retryUrl?: string;
  homeUrl: string;
}

/** After `start`: the browser goes to Microsoft with the state bound to it, or a page. */
export type StartOutcome = { kind: 'to-microsoft'; location: string; state: string } | PageOutcome;
/** After `finish`: the provider's flow resumes for the user, or a page. */
export type FinishOutcome = { kind: 'signed-in'; redirectTo: string } | PageOutcome;

const page = (status: number, code: string, links: { retryUrl?: string; homeUrl?: string | null; params?: Record<string, unknown> } = {}): PageOutcome => ({
  kind: 'page',
  status,
  code,
  params: links.params,
  retryUrl: links.retryUrl,
  homeUrl: links.homeUrl ?? '/',
});

const sameString = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The Microsoft sign-in of a pending provider interaction, as two steps: `start` (state, nonce and
 * PKCE verifier kept server-side, the browser sent to Microsoft) and `finish` (Microsoft's answer
 * checked, the code redeemed, the user found and signed in). Anything that goes wrong becomes a
 * page with at most a link back to the sign-in page, never a redirect: no answer from Microsoft can
 * send the browser round again by itself.
 */
export class ExternalLogin {
  private readonly states: LoginStates;
  private readonly redirectUri: string;

  constructor(
    private readonly context: AppContext,
    /** Undefined when the Microsoft sign-in is not configured. */
    private readonly client: MicrosoftClient | undefined,
    /** The application name of a client id, for the log. */
    private readonly applicationName: (clientId: string) => Promise<string | undefined>,
    private readonly signIn = new MicrosoftSignIn(context),
  ) {
    this.states = new LoginStates(context);
    this.redirectUri = `${context.config.server.publicUrl}${CALLBACK_PATH}`;
  }

  async start(input: {
    provider?: string;
    returnUrl?: string;
    /** The interaction the page was opened for, when it says (its cookie is authoritative). */
    interactionId?: string;
    remember: boolean;
    pending: PendingSignIn | undefined;
    caller: Caller;
  }): Promise<StartOutcome> {
    const returnUrl = safeReturnUrl(this.context, input.returnUrl) ?? null;
    if (!this.client) return page(404, 'externalLogin.not_configured', { homeUrl: returnUrl });
    if (input.provider?.toLowerCase() !== PROVIDER) return page(400, 'externalLogin.unknown_provider', { homeUrl: returnUrl });
    const { pending } = input;
    if (!pending || pending.prompt !== 'login' || (input.interactionId && input.interactionId !== pending.uid)) {
      return page(400, 'account.interaction_expired', { homeUrl: returnUrl });
    }
    const { verifier, challenge } = pkcePair();
    const { state, nonce } = await this.states.issue({ codeVerifier: verifier, interaction: pending.uid, returnUrl, remember: input.remember });
    try {
      const location = await this.client.authorizationUrl({ state, nonce, codeChallenge: challenge, redirectUri: this.redirectUri });
      return { kind: 'to-microsoft', location, state };
    } catch (error) {
      if (!(error instanceof MicrosoftError)) throw error;
      this.context.logger.warn({ err: error.message }, 'Microsoft sign-in could not start');
      await logMicrosoftAttempt(this.context, { userName: UNKNOWN_USER, result: 'Failure', reason: error.message, ...this.source(input.caller) });
      return page(503, 'externalLogin.unreachable', { retryUrl: interactionUrl(pending.uid), homeUrl: returnUrl });
    }
  }

  async finish(input: {
    query: { state?: string; code?: string; error?: string; errorDescription?: string };
    /** The state cookie of this browser. */
    boundState: string | undefined;
    pending: PendingSignIn | undefined;
    caller: Caller;
    /** Finishes the provider interaction for the signed-in user. */
    resume: Resume;
  }): Promise<FinishOutcome> {
    if (!this.client) return page(404, 'externalLogin.not_configured');
    const { query, pending, caller } = input;
    const early = { userName: UNKNOWN_USER, result: 'Failure' as const, ...this.source(caller) };

    // The state must be this browser's (no one else's answer can sign it in), then taken once.
    const state = query.state ?? '';
    if (!state || !input.boundState || !sameString(state, input.boundState)) {
      await logMicrosoftAttempt(this.context, { ...early, reason: 'Callback state does not match this browser' });
      return page(400, 'externalLogin.state_mismatch');
    }
    const saved = await this.states.consume(state);
    if (!saved) {
      await logMicrosoftAttempt(this.context, { ...early, reason: 'Callback state already used or expired' });
      return page(400, 'externalLogin.state_used');
    }

    const live = pending?.uid === saved.interaction && pending.prompt === 'login';
    const links = { retryUrl: live ? interactionUrl(saved.interaction) : undefined, homeUrl: saved.returnUrl };
    const request: ExternalSignInRequest = {
      ...this.source(caller),
      returnUrl: saved.returnUrl ?? pending?.redirectUri ?? null,
      applicationName: pending?.clientId ? await this.applicationName(pending.clientId) : undefined,
    };
    const fail = (reason: string) => logMicrosoftAttempt(this.context, { ...early, ...request, reason: reason.slice(0, 500) });

    if (query.error) {
      await fail(`Microsoft answered ${query.error}: ${query.errorDescription ?? ''}`.trim());
      return USER_ERRORS.has(query.error) ? page(400, 'externalLogin.cancelled', links) : page(502, 'externalLogin.upstream_error', links);
    }
    if (!live) {
      await fail('Sign-in interaction expired before Microsoft answered');
      return page(400, 'account.interaction_expired', { homeUrl: saved.returnUrl });
    }
    if (!query.code) {
      await fail('Microsoft answered without a code');
      return page(400, 'externalLogin.upstream_error', links);
    }

    // Spans: Microsoft's answer to the code (a call over the network), then the sign-in of the user it names.
    const { client } = this;
    const { code } = query;
    const identity = await inSpan('sign-in microsoft redeemCode', { resultAttributes: (r) => (r instanceof MicrosoftError ? { 'error.type': r.kind } : undefined) }, () =>
      this.redeem(client, { code, state, saved }, fail),
    );
    if (identity instanceof MicrosoftError) {
      return identity.kind === 'unreachable' ? page(503, 'externalLogin.unreachable', links) : page(502, 'externalLogin.upstream_error', links);
    }
    const result = await inSpan('sign-in microsoft', { resultAttributes: (r) => ({ 'gatehouse.sign_in.outcome': r.ok ? 'signed-in' : r.code }) }, () =>
      this.signIn.signIn(identity, { ...request, language: caller.language }, input.resume, saved.remember),
    );
    if (!result.ok) return { ...page(result.status, result.code, { ...links, params: result.params, retryUrl: result.retry ? links.retryUrl : undefined }), detail: result.detail };
    return { kind: 'signed-in', redirectTo: result.redirectTo };
  }

  /** Microsoft's identity for the code, or the failure (logged) that kept it from answering. */
  private async redeem(
    client: MicrosoftClient,
    input: { code: string; state: string; saved: LoginState },
    fail: (reason: string) => Promise<void>,
  ): Promise<MicrosoftIdentity | MicrosoftError> {
    try {
      const { code, state, saved } = input;
      return await client.redeemCode({ code, state, nonce: saved.nonce, codeVerifier: saved.codeVerifier, redirectUri: this.redirectUri });
    } catch (error) {
      if (!(error instanceof MicrosoftError)) throw error;
      this.context.logger.warn({ err: error.message, kind: error.kind }, 'Microsoft code redemption failed');
      await fail(error.message);
      return error;
    }
  }

  private source(caller: Caller) {
    return { ip: caller.ip, userAgent: caller.userAgent };
  }
}
