import { randomBytes, sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { SAML_MAX_RELAY_STATE, securitySettings, type AppContext } from '@gatehouse/core';
import type { Context, Middleware, Next } from 'koa';
import type Provider from 'oidc-provider';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { tellBackchannelApplications } from '../../oidc/backchannel.js';
import { SESSION_COOKIE } from '../../oidc/provider.js';
import { decodePostMessage, decodeRedirectMessage } from './authn-request.js';
import type { SamlKeys } from './keys.js';
import type { samlUrls } from './paths.js';
import { STATUS, type SigningKey } from './response.js';
import { findServiceProvider, findServiceProviderById, type ServiceProvider } from './service-providers.js';
import { ALGORITHMS, NS, SamlRefusal, childOf, childrenOf, hasValidRedirectSignature, hasValidRootSignature, protocolMessage, requestIdentity, samlId, samlInstant, xmlEscape } from './xml.js';

/** Second-level status codes of logout answers (SAML core §3.2.2.2). */
export const LOGOUT_STATUS = {
  partialLogout: 'urn:oasis:names:tc:SAML:2.0:status:PartialLogout',
  unknownPrincipal: 'urn:oasis:names:tc:SAML:2.0:status:UnknownPrincipal',
} as const;

/** How many other service providers one sign-out tells, one browser redirect each; the rest are not told. */
export const MAX_PARTICIPANTS_TOLD = 10;
/** How long a service provider has to answer its LogoutRequest before the sign-out is forgotten. */
const CHAIN_TTL_SECONDS = 5 * 60;
/** How long a LogoutRequest the identity provider sends is valid. */
const REQUEST_LIFETIME_MS = 5 * 60 * 1000;
/** The provider's end-session confirmation, where the portal's sign-out ends the session. */
const END_SESSION_CONFIRM = '/oidc/session/end/confirm';

type Session = Awaited<ReturnType<Provider['Session']['get']>>;

/** A service provider that got an assertion in a provider session, and how it knows the user there. */
export interface Participant {
  applicationId: string;
  nameId: string;
  nameIdFormat: string;
  sessionIndex: string;
}

/** What a service provider's LogoutRequest asks. */
export interface LogoutRequest {
  id: string;
  issuer: string;
  destination?: string;
  nameId: string;
  sessionIndexes: string[];
  notOnOrAfter?: Date;
}

/** What a service provider's LogoutResponse says. */
export interface LogoutResponse {
  issuer?: string;
  inResponseTo?: string;
  destination?: string;
  status?: string;
}

/** A logout message as it arrived at `/saml/slo`, in either binding. */
export interface IncomingLogout {
  binding: 'redirect' | 'post';
  samlRequest?: string;
  samlResponse?: string;
  relayState?: string;
  /** The query string as sent (HTTP-Redirect: its signature covers the encoded parameters). */
  rawQuery?: string;
  /** A LogoutRequest posted to the identity provider, checked and kept: its return in a navigation that carries the session cookie. */
  resume?: string;
}

/** A LogoutRequest checked and kept while the browser comes back with its session cookie. */
interface ReceivedRequest {
  applicationId: string;
  requestId: string;
  nameId: string;
  sessionIndexes: string[];
  relayState?: string;
}

/** A sign-out in progress: who asked, where it ends, and which service providers are still to be told. */
interface LogoutChain {
  /** The service provider whose LogoutRequest started it (answered last). */
  initiator?: { applicationId: string; requestId: string; relayState?: string };
  /** Where the browser goes once everyone was told, when the portal's sign-out started it. */
  returnTo?: string;
  remaining: Participant[];
  /** The LogoutRequest the browser carries now, whose LogoutResponse is awaited. */
  outstanding?: { applicationId: string; requestId: string };
  told: number;
  /** Someone could not be told (no single logout URL, no answer but a failure, too many). */
  partial: boolean;
}

const one = (element: Element, localName: string) => childOf(element, NS.assertion, localName)?.textContent?.trim() || undefined;

/** Reads a LogoutRequest: its document (for its signature) and what it asks. */
export function readLogoutRequest(xml: string): { document: Document; request: LogoutRequest } {
  const { document, root } = protocolMessage(xml, 'LogoutRequest');
  const { id, issuer } = requestIdentity(root, 'LogoutRequest');
  const nameId = one(root, 'NameID');
  if (!nameId) throw new SamlRefusal('the LogoutRequest names no NameID (encrypted or base identifiers are not accepted)');
  const notOnOrAfter = root.getAttribute('NotOnOrAfter');
  const expiry = notOnOrAfter ? new Date(notOnOrAfter) : undefined;
  if (expiry && Number.isNaN(expiry.getTime())) throw new SamlRefusal('NotOnOrAfter is not a date');
  return {
    document,
    request: {
      id,
      issuer,
      destination: root.getAttribute('Destination') || undefined,
      nameId,
      sessionIndexes: childrenOf(root, NS.protocol, 'SessionIndex').map((node) => node.textContent?.trim() ?? ''),
      notOnOrAfter: expiry,
    },
  };
}

/** Reads a LogoutResponse: its document (for its signature) and what it says. */
export function readLogoutResponse(xml: string): { document: Document; response: LogoutResponse } {
  const { document, root } = protocolMessage(xml, 'LogoutResponse');
  const status = childOf(root, NS.protocol, 'Status');
  const code = status ? childOf(status, NS.protocol, 'StatusCode') : undefined;
  return {
    document,
    response: {
      issuer: one(root, 'Issuer'),
      inResponseTo: root.getAttribute('InResponseTo') || undefined,
      destination: root.getAttribute('Destination') || undefined,
      status: code?.getAttribute('Value') || undefined,
    },
  };
}

/** A LogoutRequest from the identity provider to a participant, for the user it knows by `participant.nameId`. */
export function logoutRequestXml(idpEntityId: string, spEntityId: string, destination: string, participant: Participant, id: string, now = new Date()): string {
  return (
    `<samlp:LogoutRequest xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${id}" Version="2.0" IssueInstant="${samlInstant(now)}" Destination="${xmlEscape(destination)}" NotOnOrAfter="${samlInstant(new Date(now.getTime() + REQUEST_LIFETIME_MS))}" Reason="urn:oasis:names:tc:SAML:2.0:logout:user">` +
    `<saml:Issuer>${xmlEscape(idpEntityId)}</saml:Issuer>` +
    `<saml:NameID Format="${xmlEscape(participant.nameIdFormat)}" SPNameQualifier="${xmlEscape(spEntityId)}">${xmlEscape(participant.nameId)}</saml:NameID>` +
    `<samlp:SessionIndex>${xmlEscape(participant.sessionIndex)}</samlp:SessionIndex>` +
    `</samlp:LogoutRequest>`
  );
}

/** The identity provider's LogoutResponse to `inResponseTo`; `subStatus` qualifies the status. */
export function logoutResponseXml(idpEntityId: string, destination: string, inResponseTo: string, status: string, subStatus?: string, now = new Date()): string {
  const code = subStatus ? `<samlp:StatusCode Value="${status}"><samlp:StatusCode Value="${subStatus}"/></samlp:StatusCode>` : `<samlp:StatusCode Value="${status}"/>`;
  return (
    `<samlp:LogoutResponse xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${samlId()}" Version="2.0" IssueInstant="${samlInstant(now)}" Destination="${xmlEscape(destination)}" InResponseTo="${xmlEscape(inResponseTo)}">` +
    `<saml:Issuer>${xmlEscape(idpEntityId)}</saml:Issuer><samlp:Status>${code}</samlp:Status></samlp:LogoutResponse>`
  );
}

/**
 * The address carrying a message by the HTTP-Redirect binding: deflated, base64, RelayState, and
 * the RSA-SHA256 signature over the encoded parameters (the XML itself carries none, SAML bindings §3.4.4.1).
 */
export function redirectBindingUrl(location: string, name: 'SAMLRequest' | 'SAMLResponse', xml: string, relayState: string | undefined, key: SigningKey): string {
  let query = `${name}=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;
  if (relayState !== undefined) query += `&RelayState=${encodeURIComponent(relayState)}`;
  query += `&SigAlg=${encodeURIComponent(ALGORITHMS.rsaSha256)}`;
  const signature = sign('sha256', Buffer.from(query), key.privateKey).toString('base64');
  return `${location}${location.includes('?') ? '&' : '?'}${query}&Signature=${encodeURIComponent(signature)}`;
}

/** Short-lived values in the provider's storage table (swept with its other expired rows), shared by every node. */
class Stash<T> {
  constructor(
    private readonly context: AppContext,
    private readonly model: string,
    private readonly ttlSeconds: number,
  ) {}

  async put(value: T, id = randomBytes(24).toString('base64url')): Promise<string> {
    await this.context.dataSource.query(
      `INSERT INTO oidc_model_instances (model, id, payload, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
      [this.model, id, value, this.ttlSeconds],
    );
    return id;
  }

  /** The value, removed as it is read: each is taken once. */
  async take(id: string): Promise<T | undefined> {
    const rows: Array<{ payload: T }> = await this.context.dataSource.query(
      `WITH taken AS (DELETE FROM oidc_model_instances WHERE model = $1 AND id = $2 AND expires_at > now() RETURNING payload) SELECT payload FROM taken`,
      [this.model, id],
    );
    return rows[0]?.payload;
  }
}

/**
 * The SAML applications that got an assertion in each provider session, keyed by the session's
 * uid and kept as long as a session lives: those a sign-out tells.
 */
export class SessionParticipants {
  private static readonly MODEL = 'SamlSessionParticipants';

  constructor(private readonly context: AppContext) {}

  /** Adds (or updates) one application; two assertions at once in the same session both stay. */
  async remember(sessionUid: string, participant: Participant): Promise<void> {
    const seconds = securitySettings(this.context).current().TokenLifetimes.sessionSeconds;
    await this.context.dataSource.query(
      `INSERT INTO oidc_model_instances (model, id, uid, payload, expires_at) VALUES ($1, $2, $2, $3, now() + make_interval(secs => $4))
       ON CONFLICT (model, id) DO UPDATE SET payload = oidc_model_instances.payload || EXCLUDED.payload, expires_at = GREATEST(oidc_model_instances.expires_at, EXCLUDED.expires_at)`,
      [SessionParticipants.MODEL, sessionUid, { [participant.applicationId]: participant }, seconds],
    );
  }

  async list(sessionUid: string): Promise<Participant[]> {
    const rows: Array<{ payload: Record<string, Participant> }> = await this.context.dataSource.query(
      `SELECT payload FROM oidc_model_instances WHERE model = $1 AND id = $2 AND expires_at > now()`,
      [SessionParticipants.MODEL, sessionUid],
    );
    return Object.values(rows[0]?.payload ?? {});
  }

  /** The session's participants, forgotten as they are read (the session ends). */
  async take(sessionUid: string): Promise<Participant[]> {
    const rows: Array<{ payload: Record<string, Participant> }> = await this.context.dataSource.query(
      `WITH taken AS (DELETE FROM oidc_model_instances WHERE model = $1 AND id = $2 RETURNING payload, expires_at) SELECT payload FROM taken WHERE expires_at > now()`,
      [SessionParticipants.MODEL, sessionUid],
    );
    return Object.values(rows[0]?.payload ?? {});
  }
}

/**
 * Single logout (SAML profiles §4.4), front-channel. A service provider's LogoutRequest ends the
 * provider session as the product's sign-out does (OIDC applications with a back-channel logout
 * URI are told, grants and tokens end); the session's other SAML applications are then told one
 * after the other, the browser carrying a LogoutRequest to each and its LogoutResponse back, and
 * the one that asked gets the signed LogoutResponse last (PartialLogout when someone could not be
 * told). The portal's sign-out, passing through the provider's end-session, tells them the same way.
 */
export class SamlLogout {
  readonly participants: SessionParticipants;
  private readonly received: Stash<ReceivedRequest>;
  private readonly chains: Stash<LogoutChain>;

  constructor(
    private readonly context: AppContext,
    private readonly host: ProviderHost,
    private readonly keys: SamlKeys,
    private readonly urls: ReturnType<typeof samlUrls>,
  ) {
    this.participants = new SessionParticipants(context);
    this.received = new Stash(context, 'SamlLogoutRequest', CHAIN_TTL_SECONDS);
    this.chains = new Stash(context, 'SamlLogoutChain', CHAIN_TTL_SECONDS);
  }

  /** A message at `/saml/slo`: answers where the browser goes next. */
  async receive(ctx: Context, incoming: IncomingLogout): Promise<string> {
    if (incoming.resume) {
      const received = await this.received.take(incoming.resume);
      if (!received) throw new SamlRefusal('this sign-out has expired or was already completed: sign out of the application again');
      return this.logOut(ctx, received);
    }
    if (incoming.samlResponse) return this.answered(incoming);
    if (!incoming.samlRequest) throw new SamlRefusal('SAMLRequest or SAMLResponse is missing');
    const received = await this.check(incoming);
    // A cross-site form post carries no SameSite=Lax cookie: the browser comes back by a navigation that does.
    if (incoming.binding === 'post') return `${this.urls.slo}?${new URLSearchParams({ resume: await this.received.put(received) })}`;
    return this.logOut(ctx, received);
  }

  /**
   * The portal's sign-out ends the session at the provider's end-session confirmation: around it,
   * the session's SAML applications are told before the browser goes where the provider sends it.
   */
  readonly koaEndSession: Middleware = async (ctx: Context, next: Next) => {
    if (ctx.method !== 'POST' || ctx.path !== END_SESSION_CONFIRM) return next();
    await next();
    // The provider's request context: its session, destroyed when the whole session ended.
    const session = (ctx as { oidc?: { session?: Session & { destroyed?: boolean } } }).oidc?.session;
    const returnTo = ctx.response.get('Location');
    if (ctx.status !== 303 || !session?.destroyed || !session.uid || !returnTo) return;
    const participants = await this.participants.take(session.uid);
    if (!participants.length) return;
    ctx.redirect(await this.next({ returnTo, remaining: participants, told: 0, partial: false }));
    ctx.status = 303;
  };

  /** Checks a service provider's LogoutRequest: known issuer, meant for us, signed as it must be, answerable. */
  private async check(incoming: IncomingLogout): Promise<ReceivedRequest> {
    const xml = incoming.binding === 'redirect' ? decodeRedirectMessage(incoming.samlRequest!) : decodePostMessage(incoming.samlRequest!);
    const { document, request } = readLogoutRequest(xml);
    const sp = await findServiceProvider(this.context, request.issuer);
    if (!sp) throw new SamlRefusal(`no SAML application is registered with the entity id ${request.issuer}`);
    if (request.destination !== undefined && request.destination !== this.urls.slo) {
      throw new SamlRefusal(`the LogoutRequest is meant for ${request.destination}, not for this identity provider (${this.urls.slo})`);
    }
    const name = sp.application.displayName;
    if (this.mustSign(sp)) {
      if (!this.validlySigned(sp, incoming, xml, document)) throw new SamlRefusal(`${name} must sign its logout requests (RSA-SHA256, with the key of its registered certificate): this one is not validly signed`);
    } else if (!request.sessionIndexes.some(Boolean)) {
      // Unsigned, only the SessionIndex its assertion carried (an opaque value) shows the request comes from the application.
      throw new SamlRefusal(`${name} does not sign its logout requests: they must name the SessionIndex of its assertion`);
    }
    if (request.notOnOrAfter && request.notOnOrAfter.getTime() <= Date.now()) throw new SamlRefusal('the LogoutRequest has expired (NotOnOrAfter)');
    if (!sp.settings.singleLogoutUrl) throw new SamlRefusal(`${name} has no single logout URL registered: the product cannot answer its logout request`);
    if (incoming.relayState !== undefined && incoming.relayState.length > SAML_MAX_RELAY_STATE) throw new SamlRefusal('RelayState is too long');
    return { applicationId: sp.application.id, requestId: request.id, nameId: request.nameId, sessionIndexes: request.sessionIndexes, relayState: incoming.relayState };
  }

  /**
   * Ends this browser's provider session when the request is about it (the user the application
   * was given, in this session), then tells the other participants; the application's answer comes last.
   */
  private async logOut(ctx: Context, received: ReceivedRequest): Promise<string> {
    const initiator = { applicationId: received.applicationId, requestId: received.requestId, relayState: received.relayState };
    const session = await this.host.current.Session.get(ctx);
    // Nobody is signed in here any more: what the application asks is already true.
    if (!session.accountId) return this.answer(initiator, STATUS.success);
    const participant = (await this.participants.list(session.uid)).find((p) => p.applicationId === received.applicationId);
    const sameSession = received.sessionIndexes.length === 0 || (participant !== undefined && received.sessionIndexes.includes(participant.sessionIndex));
    if (!participant || participant.nameId !== received.nameId || !sameSession) {
      return this.answer(initiator, STATUS.responder, LOGOUT_STATUS.unknownPrincipal);
    }
    const participants = await this.participants.take(session.uid);
    await this.endSession(ctx, session);
    return this.next({ initiator, remaining: participants.filter((p) => p.applicationId !== received.applicationId), told: 0, partial: false });
  }

  /**
   * Ends a provider session as the provider's end-session does: applications with a back-channel
   * logout URI are told, every grant (with its codes and tokens) ends, the session and its cookie go.
   */
  private async endSession(ctx: Context, session: Session): Promise<void> {
    const provider = this.host.current;
    const accountId = session.accountId!;
    const authorizations = session.authorizations ?? {};
    const told = tellBackchannelApplications(
      provider,
      accountId,
      Object.fromEntries(Object.keys(authorizations).map((clientId) => [clientId, { sid: session.sidFor(clientId) }])),
    );
    for (const authorization of Object.values(authorizations)) {
      if (authorization.grantId && !authorization.persistsLogout) await this.host.revokeGrant(authorization.grantId);
    }
    for (const { client, sid, error } of await told) {
      if (error) provider.emit('backchannel.error', ctx, error, client, accountId, sid);
      else provider.emit('backchannel.success', ctx, client, accountId, sid);
    }
    await session.destroy();
    provider.createContext(ctx.req, ctx.res).cookies.set(provider.cookieName('session'), null, { ...SESSION_COOKIE.options });
  }

  /** A participant's LogoutResponse: noted (a failure, a forgery or a stranger's answer make the sign-out partial), then the next one. */
  private async answered(incoming: IncomingLogout): Promise<string> {
    const xml = incoming.binding === 'redirect' ? decodeRedirectMessage(incoming.samlResponse!, 'SAMLResponse') : decodePostMessage(incoming.samlResponse!, 'SAMLResponse');
    const { document, response } = readLogoutResponse(xml);
    const chain = incoming.relayState ? await this.chains.take(incoming.relayState) : undefined;
    if (!chain?.outstanding) throw new SamlRefusal('this sign-out has expired or was already completed');
    const { outstanding } = chain;
    chain.outstanding = undefined;
    const sp = await this.findById(outstanding.applicationId);
    const told =
      sp !== undefined &&
      response.issuer === sp.settings.entityId &&
      response.inResponseTo === outstanding.requestId &&
      (response.destination === undefined || response.destination === this.urls.slo) &&
      response.status === STATUS.success &&
      (!this.mustSign(sp) || this.validlySigned(sp, incoming, xml, document));
    if (!told) {
      chain.partial = true;
      this.context.logger.warn({ applicationId: outstanding.applicationId, status: response.status }, 'SAML single logout: a participant did not confirm');
    }
    return this.next(chain);
  }

  /** The next participant to tell (its LogoutRequest, the chain kept until it answers), or the end. */
  private async next(chain: LogoutChain): Promise<string> {
    while (chain.remaining.length) {
      const participant = chain.remaining.shift()!;
      const sp = chain.told < MAX_PARTICIPANTS_TOLD ? await this.findById(participant.applicationId) : undefined;
      const location = sp?.settings.singleLogoutUrl;
      if (!sp || !location) {
        chain.partial = true;
        continue;
      }
      const requestId = samlId();
      const xml = logoutRequestXml(this.urls.entityId, sp.settings.entityId, location, participant, requestId);
      chain.outstanding = { applicationId: sp.application.id, requestId };
      chain.told++;
      const chainId = await this.chains.put(chain);
      return redirectBindingUrl(location, 'SAMLRequest', xml, chainId, await this.keys.signing());
    }
    if (chain.initiator) return this.answer(chain.initiator, STATUS.success, chain.partial ? LOGOUT_STATUS.partialLogout : undefined);
    return chain.returnTo ?? '/';
  }

  /** The signed LogoutResponse to the application that asked, at its single logout URL. */
  private async answer(initiator: NonNullable<LogoutChain['initiator']>, status: string, subStatus?: string): Promise<string> {
    const sp = await this.findById(initiator.applicationId);
    const location = sp?.settings.singleLogoutUrl;
    if (!location) throw new SamlRefusal('this SAML application was changed or removed during the sign-out');
    const xml = logoutResponseXml(this.urls.entityId, location, initiator.requestId, status, subStatus);
    return redirectBindingUrl(location, 'SAMLResponse', xml, initiator.relayState, await this.keys.signing());
  }

  /** Requests of an application with a certificate must be signed with its key. */
  private mustSign(sp: ServiceProvider): boolean {
    return Boolean(sp.settings.certificate) || sp.settings.wantAuthnRequestsSigned;
  }

  private validlySigned(sp: ServiceProvider, incoming: IncomingLogout, xml: string, document: Document): boolean {
    const certificate = sp.settings.certificate;
    if (!certificate) return false;
    return incoming.binding === 'redirect' ? hasValidRedirectSignature(incoming.rawQuery ?? '', certificate) : hasValidRootSignature(xml, document, certificate);
  }

  private findById(applicationId: string): Promise<ServiceProvider | undefined> {
    return findServiceProviderById(this.context, applicationId);
  }
}
