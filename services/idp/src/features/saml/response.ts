import type { KeyObject } from 'node:crypto';
import { encryptedAssertion } from './encryption.js';
import { NS, samlId, samlInstant, signElement, xmlEscape } from './xml.js';

/** How long an assertion may be presented to its service provider. */
export const ASSERTION_LIFETIME_MS = 5 * 60 * 1000;
/** Clocks of service providers run a little ahead or behind: NotBefore is set this far back. */
const CLOCK_SKEW_MS = 30 * 1000;

export const NAME_ID_FORMATS = {
  email: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
} as const;

export const STATUS = {
  success: 'urn:oasis:names:tc:SAML:2.0:status:Success',
  responder: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
  noPassive: 'urn:oasis:names:tc:SAML:2.0:status:NoPassive',
  requestDenied: 'urn:oasis:names:tc:SAML:2.0:status:RequestDenied',
  authnFailed: 'urn:oasis:names:tc:SAML:2.0:status:AuthnFailed',
  requester: 'urn:oasis:names:tc:SAML:2.0:status:Requester',
  invalidNameIdPolicy: 'urn:oasis:names:tc:SAML:2.0:status:InvalidNameIDPolicy',
} as const;

/** NameID formats a request may ask for that leave the choice to the identity provider: the application's own format applies. */
export const ANY_NAME_ID_FORMAT: readonly string[] = ['urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient'];

const AUTHN_CONTEXT = {
  password: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
  unspecified: 'urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified',
};

export interface SigningKey {
  privateKey: KeyObject;
  certificatePem: string;
}

/** Who the response is from and for. */
export interface ResponseTarget {
  idpEntityId: string;
  spEntityId: string;
  acsUrl: string;
  /** The request answered; none in a sign-in the identity provider started (an unsolicited response). */
  inResponseTo?: string;
}

/** The InResponseTo attribute, when the response answers a request. */
const inResponseTo = (target: ResponseTarget): string => (target.inResponseTo === undefined ? '' : ` InResponseTo="${xmlEscape(target.inResponseTo)}"`);

export interface AssertionSubject {
  nameId: string;
  nameIdFormat: string;
  /** When the user signed in. */
  authnInstant: Date;
  /** The user gave a password in that sign-in. */
  password: boolean;
  /** Names the session at the SP (for single logout). */
  sessionIndex: string;
  attributes: Array<{ name: string; values: string[] }>;
}

/** A name that is a URI (urn:oid:…, https://…) is declared so; anything else is a basic name. */
const nameFormat = (name: string): string =>
  /^[a-z][a-z0-9+.-]*:/i.test(name) ? 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri' : 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';

function attributeStatement(attributes: AssertionSubject['attributes']): string {
  const present = attributes.filter((attribute) => attribute.values.length > 0);
  if (!present.length) return '';
  const items = present
    .map(
      (attribute) =>
        `<saml:Attribute Name="${xmlEscape(attribute.name)}" NameFormat="${nameFormat(attribute.name)}">${attribute.values
          .map((value) => `<saml:AttributeValue xsi:type="xs:string">${xmlEscape(value)}</saml:AttributeValue>`)
          .join('')}</saml:Attribute>`,
    )
    .join('');
  return `<saml:AttributeStatement>${items}</saml:AttributeStatement>`;
}

function assertion(target: ResponseTarget, subject: AssertionSubject, id: string, now: Date): string {
  const notOnOrAfter = samlInstant(new Date(now.getTime() + ASSERTION_LIFETIME_MS));
  const instant = samlInstant(now);
  return (
    `<saml:Assertion xmlns:saml="${NS.assertion}" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${id}" Version="2.0" IssueInstant="${instant}">` +
    `<saml:Issuer>${xmlEscape(target.idpEntityId)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${subject.nameIdFormat}" SPNameQualifier="${xmlEscape(target.spEntityId)}">${xmlEscape(subject.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo(target)} NotOnOrAfter="${notOnOrAfter}" Recipient="${xmlEscape(target.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${samlInstant(new Date(now.getTime() - CLOCK_SKEW_MS))}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${xmlEscape(target.spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${samlInstant(subject.authnInstant)}" SessionIndex="${xmlEscape(subject.sessionIndex)}"><saml:AuthnContext><saml:AuthnContextClassRef>${subject.password ? AUTHN_CONTEXT.password : AUTHN_CONTEXT.unspecified}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    attributeStatement(subject.attributes) +
    `</saml:Assertion>`
  );
}

function envelope(target: ResponseTarget, id: string, now: Date, status: string, inner: string, subStatus?: string): string {
  const code = subStatus ? `<samlp:StatusCode Value="${status}"><samlp:StatusCode Value="${subStatus}"/></samlp:StatusCode>` : `<samlp:StatusCode Value="${status}"/>`;
  return (
    `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${id}" Version="2.0" IssueInstant="${samlInstant(now)}" Destination="${xmlEscape(target.acsUrl)}"${inResponseTo(target)}>` +
    `<saml:Issuer>${xmlEscape(target.idpEntityId)}</saml:Issuer><samlp:Status>${code}</samlp:Status>${inner}</samlp:Response>`
  );
}

/**
 * A successful Response: its Assertion signed, then the Response around it signed too (RSA-SHA256),
 * so that a service provider checking either finds everything it reads covered. With `encryptFor`
 * (the service provider's certificate), the signed Assertion travels encrypted for its key.
 */
export async function signedLoginResponse(
  target: ResponseTarget,
  subject: AssertionSubject,
  key: SigningKey,
  options: { now?: Date; encryptFor?: string } = {},
): Promise<{ xml: string; assertionId: string }> {
  const now = options.now ?? new Date();
  const assertionId = samlId();
  const signedAssertion = signElement(assertion(target, subject, assertionId, now), assertionId, key);
  const carried = options.encryptFor === undefined ? signedAssertion : await encryptedAssertion(signedAssertion, options.encryptFor);
  const responseId = samlId();
  return { xml: signElement(envelope(target, responseId, now, STATUS.success, carried), responseId, key), assertionId };
}

/**
 * A signed Response saying the sign-in did not happen (no assertion): `subStatus` says why, under
 * `status` (Responder: the identity provider's side; Requester: the request asked what cannot be given).
 */
export function signedErrorResponse(target: ResponseTarget, subStatus: string, key: SigningKey, now = new Date(), status: string = STATUS.responder): string {
  const responseId = samlId();
  return signElement(envelope(target, responseId, now, status, '', subStatus), responseId, key);
}
