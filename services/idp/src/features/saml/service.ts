import { createHmac } from 'node:crypto';
import { SAML_MAX_RELAY_STATE, writeSessionLogs, type AppContext } from '@gatehouse/core';
import type { AccountRow } from '../../oidc/account.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { decodePostMessage, decodeRedirectMessage, readAuthnRequest, type AuthnRequest } from './authn-request.js';
import { DisclaimersService } from '../disclaimers/service.js';
import { SamlDisclaimers, type DisclaimerStep } from './disclaimer.js';
import { SamlKeys } from './keys.js';
import { SamlLogout } from './logout.js';
import { findLaunchableServiceProvider } from './launch.js';
import { idpMetadata } from './metadata.js';
import { samlUrls } from './paths.js';
import { PendingRequests, type NameIdFormat, type PendingRequest, type SignedInUser } from './pending.js';
import { ANY_NAME_ID_FORMAT, NAME_ID_FORMATS, STATUS, signedErrorResponse, signedLoginResponse, type AssertionSubject, type ResponseTarget } from './response.js';
import { findServiceProvider, type ServiceProvider } from './service-providers.js';
import { SamlRefusal, hasValidRedirectSignature, hasValidRootSignature } from './xml.js';

/** An AuthnRequest as it arrived, in either binding. */
export interface IncomingRequest {
  binding: 'redirect' | 'post';
  samlRequest: string;
  relayState?: string;
  /** The query string as sent (HTTP-Redirect: its signature covers the encoded parameters). */
  rawQuery?: string;
}

/** What the browser posts to the service provider. */
export interface OutgoingResponse {
  acsUrl: string;
  samlResponse: string;
  relayState?: string;
}

/** How a sign-in ends: a response posted to the service provider, or first the application's terms to accept. */
export type SignInOutcome = { post: OutgoingResponse } | { disclaimer: DisclaimerStep };

/** The provider's error answers that tell the service provider something more precise than "it failed". */
const SUB_STATUS: Record<string, string> = {
  login_required: STATUS.noPassive,
  access_denied: STATUS.requestDenied,
};

/**
 * The SAML 2.0 identity provider. A service provider's request is checked, kept server-side, and
 * the user signs in through the product's own OpenID Connect provider, the SAML application being
 * the client: the sign-in pages, second factor, lockout, stopped applications, ended access and the
 * session are those of every application, and the sign-in's logs name the SAML application. The
 * code the sign-in comes back with is redeemed in-process, and the answer is a signed assertion.
 */
export class SamlService {
  readonly urls: ReturnType<typeof samlUrls>;
  /** Single logout, and the applications each session's sign-out tells. */
  readonly logout: SamlLogout;
  /** The applications' terms, accepted before their first assertion. */
  private readonly disclaimers: SamlDisclaimers;

  constructor(
    private readonly context: AppContext,
    private readonly host: ProviderHost,
    readonly keys = new SamlKeys(context),
    private readonly pending = new PendingRequests(context),
  ) {
    this.urls = samlUrls(context.config.server.publicUrl);
    this.logout = new SamlLogout(context, host, keys, this.urls);
    this.disclaimers = new SamlDisclaimers(new DisclaimersService(context, host.registry));
  }

  async metadata(): Promise<string> {
    return idpMetadata(this.urls, await this.keys.published());
  }

  /**
   * Checks a service provider's AuthnRequest and keeps it; answers where the browser signs in, or,
   * for a request that cannot be met whoever signs in (a NameID format the identity provider does
   * not give), the signed error response at once.
   */
  async startSignIn(incoming: IncomingRequest): Promise<{ pendingId: string; signInUrl: string } | { post: OutgoingResponse }> {
    const xml = incoming.binding === 'redirect' ? decodeRedirectMessage(incoming.samlRequest) : decodePostMessage(incoming.samlRequest);
    const { document, request } = readAuthnRequest(xml);
    const sp = await findServiceProvider(this.context, request.issuer);
    if (!sp) throw new SamlRefusal(`no SAML application is registered with the entity id ${request.issuer}`);
    if (request.destination !== undefined && request.destination !== this.urls.sso) {
      throw new SamlRefusal(`the AuthnRequest is meant for ${request.destination}, not for this identity provider (${this.urls.sso})`);
    }
    this.checkSignature(sp, incoming, xml, document);
    if (incoming.relayState !== undefined && incoming.relayState.length > SAML_MAX_RELAY_STATE) throw new SamlRefusal('RelayState is too long');
    const pending: PendingRequest = {
      applicationId: sp.application.id,
      clientId: sp.application.name,
      spEntityId: sp.settings.entityId,
      requestId: request.id,
      acsUrl: this.assertionConsumerService(sp, request),
      relayState: incoming.relayState,
    };
    const nameIdFormat = requestedNameIdFormat(request.nameIdFormat, sp.settings.nameIdFormat);
    if (nameIdFormat === 'unsupported') {
      return { post: this.outgoing(pending, signedErrorResponse(this.target(pending), STATUS.invalidNameIdPolicy, await this.keys.signing(), new Date(), STATUS.requester)) };
    }
    const pendingId = await this.pending.add({ ...pending, nameIdFormat });
    return { pendingId, signInUrl: this.signInUrl(sp, pendingId, request.isPassive ? 'none' : request.forceAuthn ? 'login' : undefined) };
  }

  /**
   * A sign-in the identity provider starts (from the portal's launcher): the user signs in if need
   * be, then the application's default assertion consumer service receives an unsolicited response
   * (no InResponseTo), with the application's default RelayState.
   */
  async startLaunch(applicationName: string): Promise<{ pendingId: string; signInUrl: string }> {
    const sp = await findLaunchableServiceProvider(this.context, applicationName);
    if (!sp) throw new SamlRefusal(`no SAML application is named ${applicationName}`, 404);
    const pendingId = await this.pending.add({
      applicationId: sp.application.id,
      clientId: sp.application.name,
      spEntityId: sp.settings.entityId,
      acsUrl: this.assertionConsumerService(sp, {}),
      relayState: sp.settings.defaultRelayState ?? undefined,
    });
    return { pendingId, signInUrl: this.signInUrl(sp, pendingId) };
  }

  /**
   * The sign-in came back (`code`, or the provider's `error`): the pending request is taken, the
   * code redeemed here, and the answer for the service provider made.
   */
  async finishSignIn(pendingId: string, result: { code?: string; error?: string }): Promise<SignInOutcome> {
    const pending = await this.pending.take(pendingId);
    if (!pending || pending.signedIn) throw new SamlRefusal('this sign-in has expired or was already completed: go back to the application and sign in again');
    if (!result.code) return this.refuse(pending, SUB_STATUS[result.error ?? ''] ?? STATUS.authnFailed, `the sign-in did not complete (${result.error ?? 'no code'})`);
    const code = await this.host.current.AuthorizationCode.find(result.code);
    const invalid = () => new SamlRefusal('the sign-in did not come back with a valid code for this application');
    if (!code || code.clientId !== pending.clientId || code.redirectUri !== this.urls.continue || !code.accountId) throw invalid();
    // Taken once: a second use of the code (here or on another node) fails.
    await code.consume().catch(() => {
      throw invalid();
    });
    const user = await this.host.directory.find(code.accountId);
    if (!user) return this.refuse(pending, STATUS.requestDenied, 'this account may not sign in');
    const sp = await this.serviceProviderOf(pending);
    return this.conclude(pending, sp, user, { accountId: user.id, sessionUid: code.sessionUid, authTime: code.authTime, amr: code.amr });
  }

  /**
   * The user's answer to the application's disclaimer: accepted, the sign-in goes on (a version
   * published meanwhile is shown in turn); declined, the service provider is told the request was
   * denied (a sign-in started from the portal ends on a page saying so).
   */
  async answerDisclaimer(pendingId: string, answer: { accept: boolean; version?: number }): Promise<SignInOutcome> {
    const pending = await this.pending.take(pendingId);
    const signedIn = pending?.signedIn;
    if (!pending || !signedIn) throw new SamlRefusal('this sign-in has expired or was already completed: go back to the application and sign in again');
    const sp = await this.serviceProviderOf(pending);
    const user = await this.host.directory.find(signedIn.accountId);
    // Signed out (or the account stopped) while reading: nobody to vouch for any more.
    const session = signedIn.sessionUid ? await this.host.current.Session.findByUid(signedIn.sessionUid) : undefined;
    if (!user || !session || session.accountId !== user.id) return this.refuse(pending, STATUS.requestDenied, 'the session ended before the terms were answered: sign in again');
    if (!answer.accept) return this.refuse(pending, STATUS.requestDenied, `the terms of ${sp.application.displayName} were declined: it may not be opened without them`);
    // Accepting terms is the user's own consent: never given by a God user signed in as them.
    if (await this.host.impersonations.ofSession(signedIn.sessionUid)) {
      throw new SamlRefusal(`the terms of ${sp.application.displayName} are accepted by the user alone, not by someone signed in as them`, 403);
    }
    if (answer.version !== undefined) await this.disclaimers.accept(user, sp.application.name, answer.version);
    return this.conclude(pending, sp, user, signedIn);
  }

  close(): void {
    this.keys.close();
  }

  /**
   * The signed-in user's way to the assertion: a sign-in started from the portal is for the
   * application's users only; the application's latest disclaimer must be accepted; then the
   * signed (and, for an application that asks, encrypted) response.
   */
  private async conclude(pending: PendingRequest, sp: ServiceProvider, user: AccountRow, signedIn: SignedInUser): Promise<SignInOutcome> {
    if (pending.requestId === undefined && (await this.host.directory.roleNames(user.id, sp.application.id)).length === 0) {
      throw new SamlRefusal(`you have no access to ${sp.application.displayName}: ask for it from the portal`, 403);
    }
    const disclaimer = await this.disclaimers.toAccept(user, sp.application.name);
    if (disclaimer) {
      const pendingId = await this.pending.add({ ...pending, signedIn });
      return { disclaimer: { ...disclaimer, pendingId, application: sp.application.displayName } };
    }
    const { encryptAssertions, certificate } = sp.settings;
    if (encryptAssertions && !certificate) throw new SamlRefusal(`${sp.application.displayName} wants encrypted assertions but has no certificate to encrypt them for`, 500);
    const subject = await this.subject(sp, user, signedIn, pending.nameIdFormat);
    const { xml } = await signedLoginResponse(this.target(pending), subject, await this.keys.signing(), { encryptFor: encryptAssertions ? certificate! : undefined });
    await this.logSession(pending, user, signedIn.sessionUid);
    // The session's sign-out tells this application (single logout).
    if (signedIn.sessionUid) {
      await this.logout.participants.remember(signedIn.sessionUid, { applicationId: sp.application.id, nameId: subject.nameId, nameIdFormat: subject.nameIdFormat, sessionIndex: subject.sessionIndex });
    }
    return { post: this.outgoing(pending, xml) };
  }

  /**
   * A sign-in that does not end in an assertion: a service provider's request is answered by a
   * signed error response saying why (`subStatus`); a sign-in started from the portal, which no
   * service provider awaits, ends on a page saying why (`message`).
   */
  private async refuse(pending: PendingRequest, subStatus: string, message: string): Promise<SignInOutcome> {
    if (pending.requestId === undefined) throw new SamlRefusal(message, 403);
    return { post: this.outgoing(pending, signedErrorResponse(this.target(pending), subStatus, await this.keys.signing())) };
  }

  private target(pending: PendingRequest): ResponseTarget {
    return { idpEntityId: this.urls.entityId, spEntityId: pending.spEntityId, acsUrl: pending.acsUrl, inResponseTo: pending.requestId };
  }

  private outgoing(pending: PendingRequest, xml: string): OutgoingResponse {
    return { acsUrl: pending.acsUrl, samlResponse: Buffer.from(xml).toString('base64'), relayState: pending.relayState };
  }

  /** The pending sign-in's application, as it is now. */
  private async serviceProviderOf(pending: PendingRequest): Promise<ServiceProvider> {
    const sp = await findServiceProvider(this.context, pending.spEntityId);
    if (!sp || sp.application.id !== pending.applicationId) throw new SamlRefusal('this SAML application was changed or removed during the sign-in');
    return sp;
  }

  /** Where the browser signs in to the product for this application, coming back to `/saml/continue` with `pendingId`. */
  private signInUrl(sp: ServiceProvider, pendingId: string, prompt?: 'none' | 'login'): string {
    const signIn = new URLSearchParams({ client_id: sp.application.name, response_type: 'code', scope: 'openid', redirect_uri: this.urls.continue, state: pendingId });
    if (prompt) signIn.set('prompt', prompt);
    return `${this.context.config.server.publicUrl}/oidc/auth?${signIn}`;
  }

  /** Signed requests required of this SP: HTTP-Redirect's query signature, or HTTP-POST's enveloped one. */
  private checkSignature(sp: ServiceProvider, incoming: IncomingRequest, xml: string, document: Document) {
    if (!sp.settings.wantAuthnRequestsSigned) return;
    const certificate = sp.settings.certificate;
    const valid =
      !!certificate &&
      (incoming.binding === 'redirect' ? hasValidRedirectSignature(incoming.rawQuery ?? '', certificate) : hasValidRootSignature(xml, document, certificate));
    if (!valid) throw new SamlRefusal(`${sp.application.displayName} must sign its requests (RSA-SHA256, with the key of its registered certificate): this one is not validly signed`);
  }

  /**
   * Where the answer goes: the address the request names when it is one of the application's
   * assertion consumer services, the one at the index it names, or the first (default) one.
   */
  private assertionConsumerService(sp: ServiceProvider, request: Partial<Pick<AuthnRequest, 'protocolBinding' | 'acsUrl' | 'acsIndex'>>): string {
    const services = sp.settings.assertionConsumerServices;
    if (request.protocolBinding !== undefined && request.protocolBinding !== 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST') {
      throw new SamlRefusal(`responses are sent with the HTTP-POST binding only, not ${request.protocolBinding}`);
    }
    let url: string | undefined;
    if (request.acsUrl !== undefined) {
      url = services.find((service) => service.url === request.acsUrl)?.url;
      if (!url) throw new SamlRefusal(`${request.acsUrl} is not an assertion consumer service registered for ${sp.application.displayName}`);
    } else if (request.acsIndex !== undefined) {
      url = services[request.acsIndex]?.url;
      if (!url) throw new SamlRefusal(`${sp.application.displayName} has no assertion consumer service at index ${request.acsIndex}`);
    } else url = services[0]?.url;
    if (!url) throw new SamlRefusal(`${sp.application.displayName} has no assertion consumer service`);
    if (this.context.config.nodeEnv === 'production' && !url.startsWith('https:')) throw new SamlRefusal('assertions are only sent over https');
    return url;
  }

  /** Who the assertion is about: the NameID in the format the request asked for, else the application's. */
  private async subject(sp: ServiceProvider, user: AccountRow, code: Omit<SignedInUser, 'accountId'>, requested?: NameIdFormat): Promise<AssertionSubject> {
    const { id: applicationId } = sp.application;
    const persistent = (requested ?? sp.settings.nameIdFormat) === 'persistent';
    const values = await this.attributeValues(applicationId, user, new Set(sp.settings.attributeMapping.map((mapping) => mapping.source)));
    return {
      nameId: persistent ? this.derived('saml-persistent-name-id', `${applicationId}:${user.id}`) : user.email,
      nameIdFormat: persistent ? NAME_ID_FORMATS.persistent : NAME_ID_FORMATS.email,
      authnInstant: code.authTime ? new Date(code.authTime * 1000) : new Date(),
      password: code.amr?.includes('pwd') ?? false,
      sessionIndex: `_${this.derived('saml-session-index', `${code.sessionUid ?? ''}:${applicationId}`)}`,
      attributes: sp.settings.attributeMapping.map((mapping) => ({ name: mapping.name, values: values[mapping.source] ?? [] })),
    };
  }

  /** The values of the attribute sources the application maps (roles and company read only when mapped). */
  private async attributeValues(applicationId: string, user: AccountRow, wanted: Set<string>): Promise<Record<string, string[]>> {
    const one = (value: string | null | undefined) => (value ? [value] : []);
    const company = wanted.has('company') ? await this.host.directory.currentCompany(user.id, 'company', applicationId) : undefined;
    return {
      email: one(user.email),
      firstName: one(user.first_name),
      lastName: one(user.last_name),
      displayName: one([user.first_name, user.last_name].filter(Boolean).join(' ') || user.user_name),
      userName: one(user.user_name),
      roles: wanted.has('roles') ? await this.host.directory.roleNames(user.id, applicationId) : [],
      company: one(company?.title),
    };
  }

  /** An opaque value derived from the encryption key: the same input always gives the same value, nobody can reverse it. */
  private derived(purpose: string, input: string): string {
    return createHmac('sha256', this.context.secrets.deriveKey(purpose)).update(input).digest('base64url');
  }

  /** One session-log row per assertion, as the OIDC provider writes one per token (naming the God user acting, in a session signed in as another user). */
  private async logSession(pending: PendingRequest, user: AccountRow, sessionUid: string | undefined) {
    const impersonation = await this.host.impersonations.ofSession(sessionUid);
    await writeSessionLogs(this.context.dataSource, [
      {
        userId: user.id,
        userName: user.user_name,
        roles: await this.host.directory.roleNames(user.id, pending.applicationId),
        applicationName: pending.clientId,
        date: new Date(),
        actorId: impersonation?.actorId ?? null,
      },
    ]).catch((error: Error) => this.context.logger.warn({ err: error.message }, 'session log failed'));
  }
}

/**
 * The NameID format an AuthnRequest's NameIDPolicy asks for: persistent (an opaque id, which gives
 * the service provider less than an address), or e-mail where the application's format is e-mail
 * already (an application given opaque ids does not get the user's address by asking); undefined
 * when it leaves the choice (no policy, unspecified, transient: the application's format applies);
 * `unsupported` for any other, which is answered InvalidNameIDPolicy (SAML core 3.4.1.1).
 */
function requestedNameIdFormat(format: string | undefined, configured: NameIdFormat): NameIdFormat | 'unsupported' | undefined {
  if (format === undefined || ANY_NAME_ID_FORMAT.includes(format)) return undefined;
  if (format === NAME_ID_FORMATS.persistent) return 'persistent';
  if (format === NAME_ID_FORMATS.email && configured === 'email') return 'email';
  return 'unsupported';
}
