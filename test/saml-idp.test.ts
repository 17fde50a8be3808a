// The SAML 2.0 identity provider, driven from Node: metadata, SP-initiated sign-in over the
// HTTP-Redirect and HTTP-POST bindings through the product's own sign-in, and the requests it refuses.
import { X509Certificate, createHash, createPrivateKey, randomBytes, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { expect } from 'chai';
import { decodeJwt, exportJWK, generateKeyPair } from 'jose';
import { SignedXml } from 'xml-crypto';
import * as xmlenc from 'xml-encryption';
import { homeApplications } from '@gatehouse/core';
import { rotateSigningKeys } from '@gatehouse/idp';
import { certificateFor } from '../services/idp/src/features/saml/keys.js';
import { freePort, startTestServer, type TestServer } from './support/server.js';
import { CookieBrowser, signIn } from './interop/support.js';

const PASSWORD = 'Correct-Horse-42!';
const SP_ENTITY_ID = 'https://wiki.example.com/saml/metadata';
const ACS = 'https://wiki.example.com/saml/acs';
const OTHER_ACS = 'https://wiki.example.com/saml/acs-2';
const SIGNING_SP = 'https://crm.example.com/saml';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

const bootstrap = (spCertificate: string) => `
areas: [{ name: Default, default: true }]
tenants: [{ title: ACME, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - id: wiki
    name: wiki
    displayName: Company wiki
    protocol: saml
    saml:
      entityId: '${SP_ENTITY_ID}'
      assertionConsumerServices: [{ url: '${ACS}' }, { url: '${OTHER_ACS}' }]
      nameIdFormat: email
      attributes:
        - { source: email, name: mail }
        - { source: firstName, name: givenName }
        - { source: lastName, name: sn }
        - { source: roles, name: 'urn:example:roles' }
    roles: [{ name: Editor }, { name: Reader }]
  - id: archive
    name: archive
    displayName: Old archive
    protocol: saml
    status: Stopped
    saml:
      entityId: 'urn:example:archive'
      assertionConsumerServices: [{ url: 'https://archive.example.com/acs' }]
      nameIdFormat: persistent
    roles: [{ name: Reader }]
  - id: crm
    name: crm
    displayName: CRM
    protocol: saml
    saml:
      entityId: '${SIGNING_SP}'
      assertionConsumerServices: [{ url: 'https://crm.example.com/saml/acs' }]
      wantAuthnRequestsSigned: true
      certificate: |
${spCertificate
  .trim()
  .split('\n')
  .map((line) => `        ${line}`)
  .join('\n')}
  - id: staffdir
    name: staffdir
    displayName: Staff directory
    protocol: saml
    saml: { entityId: 'urn:example:staffdir', assertionConsumerServices: [{ url: 'https://staffdir.example.com/acs' }], nameIdFormat: persistent }
    roles: [{ name: Reader }]
users:
  - userName: alice@example.com
    firstName: Alice
    lastName: Martin
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: ACME, application: wiki, roles: [Editor, Reader] }
      - { tenant: ACME, application: archive, roles: [Reader] }
`;

function authnRequest(options: { issuer?: string; acs?: string; destination?: string; id?: string; extra?: string; attributes?: string; nameIdFormat?: string } = {}): string {
  const policy = options.nameIdFormat === undefined ? '' : `<samlp:NameIDPolicy Format="${options.nameIdFormat}" AllowCreate="true"/>`;
  const acs = options.acs === undefined ? '' : ` AssertionConsumerServiceURL="${options.acs}"`;
  const destination = options.destination === undefined ? '' : ` Destination="${options.destination}"`;
  return `${options.extra ?? ''}<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${options.id ?? `_${randomUUID()}`}" Version="2.0" IssueInstant="${new Date().toISOString()}"${destination}${acs}${options.attributes ?? ''} ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"><saml:Issuer>${options.issuer ?? SP_ENTITY_ID}</saml:Issuer>${policy}</samlp:AuthnRequest>`;
}

const redirectQuery = (xml: string, relayState?: string) =>
  new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.from(xml)).toString('base64'), ...(relayState ? { RelayState: relayState } : {}) }).toString();

const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml');

/** The form the page posts: its action and fields. */
function postedForm(html: string): { action: string; fields: Record<string, string> } {
  const unescape = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  expect(action, html).to.be.a('string');
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = unescape(match[2]!);
  return { action: unescape(action!), fields };
}

/** Whether the element with this ID is signed by the certificate (RSA-SHA256, reference to itself). */
function signedBy(xml: string, elementName: 'Response' | 'Assertion', certificate: string): boolean {
  const document = parse(xml);
  const element = document.getElementsByTagNameNS('*', elementName)[0]!;
  const signature = [...Array.from(element.childNodes)].find((node) => (node as Element).localName === 'Signature') as Element | undefined;
  if (!signature) return false;
  const verifier = new SignedXml({ publicCert: `-----BEGIN CERTIFICATE-----\n${certificate}\n-----END CERTIFICATE-----\n`, getCertFromKeyInfo: () => null });
  verifier.loadSignature(signature);
  return verifier.checkSignature(xml) && verifier.getReferences()[0]!.uri === `#${element.getAttribute('ID')}` && verifier.signatureAlgorithm === 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
}

describe('SAML identity provider', function () {
  this.timeout(120_000);
  let server: TestServer;
  /** The key the CRM signs its requests with (its certificate is registered). */
  let spKey: KeyObject;

  before(async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'crm' };
    spKey = createPrivateKey({ key: jwk as never, format: 'jwk' });
    const certificate = await certificateFor(jwk, new Date(), 'crm.example.com');
    server = await startTestServer({ bootstrap: bootstrap(certificate.toString('pem')) });
  });
  after(async () => {
    await server?.stop();
  });

  async function metadataCertificates(): Promise<string[]> {
    const res = await fetch(`${server.url}/saml/metadata`);
    const xml = await res.text();
    return Array.from(parse(xml).getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate')).map((node) => node.textContent!.trim());
  }

  /** The browser signs in where the SSO endpoint sent it, and comes back with the page posting to the SP. */
  async function signInThrough(browser: CookieBrowser, ssoAnswer: Response): Promise<{ action: string; fields: Record<string, string>; csp: string }> {
    expect(ssoAnswer.status, await ssoAnswer.clone().text()).to.equal(303);
    const toLogin = await browser.follow(new URL(ssoAnswer.headers.get('location')!, server.url).toString(), (url) => url.pathname === '/account/login' || url.pathname === '/saml/continue');
    let atContinue = toLogin;
    if (new URL(toLogin.url).pathname === '/account/login') {
      atContinue = await browser.follow(await signIn(browser, new URL(toLogin.url), 'alice@example.com', PASSWORD), (url) => url.pathname === '/saml/continue');
    }
    expect(new URL(atContinue.url).pathname, JSON.stringify(atContinue.hops)).to.equal('/saml/continue');
    const page = await browser.get(atContinue.url);
    const html = await page.text();
    expect(page.status, html).to.equal(200);
    return { ...postedForm(html), csp: page.headers.get('content-security-policy') ?? '' };
  }

  it('publishes signed metadata naming the SSO endpoints and the signing certificate, the same certificate on every read', async () => {
    const res = await fetch(`${server.url}/saml/metadata`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/samlmetadata\+xml/);
    const xml = await res.text();
    const root = parse(xml).documentElement!;
    expect(root.localName).to.equal('EntityDescriptor');
    expect(root.getAttribute('entityID')).to.equal(`${server.url}/saml`);
    const sso = Array.from(root.getElementsByTagNameNS('*', 'SingleSignOnService')).map((node) => [node.getAttribute('Binding'), node.getAttribute('Location')]);
    expect(sso).to.deep.equal([
      ['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', `${server.url}/saml/sso`],
      ['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', `${server.url}/saml/sso`],
    ]);
    const certificates = await metadataCertificates();
    // KeyDescriptor's certificate and the signature's KeyInfo: the one key signing now.
    expect(new Set(certificates).size).to.equal(1);
    const signature = Array.from(root.childNodes).find((node) => (node as Element).localName === 'Signature') as Element;
    const verifier = new SignedXml({ publicCert: `-----BEGIN CERTIFICATE-----\n${certificates[0]}\n-----END CERTIFICATE-----\n`, getCertFromKeyInfo: () => null });
    verifier.loadSignature(signature);
    expect(verifier.checkSignature(xml)).to.equal(true);
    expect(await metadataCertificates()).to.deep.equal(certificates);
  });

  it('answers an HTTP-Redirect AuthnRequest, once the user has signed in, with a signed response and signed assertion for the SP alone', async () => {
    const browser = new CookieBrowser();
    const requestId = `_${randomUUID()}`;
    const sso = await browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest({ id: requestId, acs: ACS, destination: `${server.url}/saml/sso` }), 'page=/home')}`);
    const { action, fields, csp } = await signInThrough(browser, sso);
    expect(action).to.equal(ACS);
    expect(fields.RelayState).to.equal('page=/home');
    expect(csp).to.include('form-action https://wiki.example.com');
    const xml = Buffer.from(fields.SAMLResponse!, 'base64').toString('utf8');
    const [certificate] = await metadataCertificates();
    expect(signedBy(xml, 'Response', certificate!), 'the response is signed').to.equal(true);
    expect(signedBy(xml, 'Assertion', certificate!), 'the assertion is signed').to.equal(true);

    const document = parse(xml);
    const one = (name: string) => document.getElementsByTagNameNS('*', name)[0]!;
    expect(one('Response').getAttribute('InResponseTo')).to.equal(requestId);
    expect(one('Response').getAttribute('Destination')).to.equal(ACS);
    expect(one('StatusCode').getAttribute('Value')).to.equal('urn:oasis:names:tc:SAML:2.0:status:Success');
    expect(one('Audience').textContent).to.equal(SP_ENTITY_ID);
    const confirmation = one('SubjectConfirmationData');
    expect(confirmation.getAttribute('Recipient')).to.equal(ACS);
    expect(confirmation.getAttribute('InResponseTo')).to.equal(requestId);
    const lifetime = Date.parse(confirmation.getAttribute('NotOnOrAfter')!) - Date.now();
    expect(lifetime).to.be.within(4 * 60_000, 5 * 60_000 + 1000);
    expect(one('NameID').textContent).to.equal('alice@example.com');
    expect(one('NameID').getAttribute('Format')).to.equal('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    const attributes = Object.fromEntries(
      Array.from(document.getElementsByTagNameNS('*', 'Attribute')).map((node) => [node.getAttribute('Name'), Array.from(node.getElementsByTagNameNS('*', 'AttributeValue')).map((value) => value.textContent)]),
    );
    expect(attributes).to.deep.equal({ mail: ['alice@example.com'], givenName: ['Alice'], sn: ['Martin'], 'urn:example:roles': ['Editor', 'Reader'] });

    // The sign-in's log names the SAML application.
    const logs = (await server.server.context.dataSource.query(`SELECT application_name, result FROM authentication_logs WHERE user_name = 'alice@example.com'`)) as Array<{ application_name: string; result: string }>;
    expect(logs.map((row) => row.application_name)).to.include('wiki');

    // The same browser, a second request: the session is reused, no sign-in page, and new ids.
    const again = await browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest({ acs: OTHER_ACS }))}`);
    const second = await signInThrough(browser, again);
    expect(second.action).to.equal(OTHER_ACS);
    const secondXml = Buffer.from(second.fields.SAMLResponse!, 'base64').toString('utf8');
    expect(parse(secondXml).getElementsByTagNameNS('*', 'Assertion')[0]!.getAttribute('ID')).to.not.equal(one('Assertion').getAttribute('ID'));
  });

  it('answers an HTTP-POST AuthnRequest without an ACS URL at the default (first) assertion consumer service', async () => {
    const browser = new CookieBrowser();
    const sso = await browser.request('POST', `${server.url}/saml/sso`, { form: { SAMLRequest: Buffer.from(authnRequest()).toString('base64'), RelayState: 'r1' }, from: 'http://127.0.0.1:9/' });
    const { action, fields } = await signInThrough(browser, sso);
    expect(action).to.equal(ACS);
    expect(fields.RelayState).to.equal('r1');
  });

  it('completes a pending request once, and only in the browser that brought it', async () => {
    const browser = new CookieBrowser();
    const sso = await browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest())}`);
    const toLogin = await browser.follow(new URL(sso.headers.get('location')!, server.url).toString(), (url) => url.pathname === '/account/login');
    const atContinue = await browser.follow(await signIn(browser, new URL(toLogin.url), 'alice@example.com', PASSWORD), (url) => url.pathname === '/saml/continue');
    const stranger = await new CookieBrowser().get(atContinue.url);
    expect(stranger.status).to.equal(400);
    expect(await stranger.text()).to.include('not started in this browser');
    expect((await browser.get(atContinue.url)).status).to.equal(200);
    const replay = await browser.get(atContinue.url);
    expect(replay.status).to.equal(400);
  });

  it('answers one of three simultaneous completions of the same pending request, and refuses the others', async () => {
    const browser = new CookieBrowser();
    const sso = await browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest())}`);
    const toLogin = await browser.follow(new URL(sso.headers.get('location')!, server.url).toString(), (url) => url.pathname === '/account/login');
    const atContinue = await browser.follow(await signIn(browser, new URL(toLogin.url), 'alice@example.com', PASSWORD), (url) => url.pathname === '/saml/continue');
    const answers = await Promise.all([browser.get(atContinue.url), browser.get(atContinue.url), browser.get(atContinue.url)]);
    const pages = await Promise.all(answers.map(async (answer) => ({ status: answer.status, html: await answer.text() })));
    expect(pages.map((page) => page.status).sort()).to.deep.equal([200, 400, 400]);
    expect(pages.filter((page) => page.html.includes('SAMLResponse'))).to.have.length(1);
  });

  it('answers a passive request (IsPassive) without a session with a signed NoPassive response, and no sign-in page', async () => {
    const browser = new CookieBrowser();
    const requestId = `_${randomUUID()}`;
    const sso = await browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest({ id: requestId, attributes: ' IsPassive="true"' }))}`);
    const { action, fields } = await signInThrough(browser, sso);
    expect(action).to.equal(ACS);
    const xml = Buffer.from(fields.SAMLResponse!, 'base64').toString('utf8');
    const [certificate] = await metadataCertificates();
    expect(signedBy(xml, 'Response', certificate!)).to.equal(true);
    const document = parse(xml);
    expect(document.getElementsByTagNameNS('*', 'Assertion')).to.have.length(0);
    expect(Array.from(document.getElementsByTagNameNS('*', 'StatusCode')).map((node) => node.getAttribute('Value'))).to.deep.equal([
      'urn:oasis:names:tc:SAML:2.0:status:Responder',
      'urn:oasis:names:tc:SAML:2.0:status:NoPassive',
    ]);
    expect(document.documentElement!.getAttribute('InResponseTo')).to.equal(requestId);
  });

  it('gives the NameID format the request’s NameIDPolicy asks for (persistent: opaque, the same each time), and the application’s own when it leaves the choice', async () => {
    const browser = new CookieBrowser();
    const nameIdOf = async (nameIdFormat?: string) => {
      const { fields } = await signInThrough(browser, await browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest({ nameIdFormat }))}`));
      const nameId = parse(Buffer.from(fields.SAMLResponse!, 'base64').toString('utf8')).getElementsByTagNameNS('*', 'NameID')[0]!;
      return { format: nameId.getAttribute('Format'), value: nameId.textContent };
    };
    const persistent = await nameIdOf('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
    expect(persistent.format).to.equal('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
    expect(persistent.value).to.match(/^[A-Za-z0-9_-]{40,}$/);
    expect(persistent.value).to.not.include('alice');
    expect(await nameIdOf('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'), 'the same for the same user and application').to.deep.equal(persistent);
    const email = { format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', value: 'alice@example.com' };
    expect(await nameIdOf('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress')).to.deep.equal(email);
    // The application's format (e-mail) when the request leaves the choice.
    expect(await nameIdOf('urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified')).to.deep.equal(email);
    expect(await nameIdOf('urn:oasis:names:tc:SAML:2.0:nameid-format:transient')).to.deep.equal(email);
    expect(await nameIdOf()).to.deep.equal(email);
  });

  it('answers a NameIDPolicy format it does not give, or e-mail to an application given opaque ids, with a signed InvalidNameIDPolicy response at once, before any sign-in', async () => {
    const [certificate] = await metadataCertificates();
    const refused = async (request: { issuer?: string; nameIdFormat: string }, acs: string) => {
      const browser = new CookieBrowser();
      const requestId = `_${randomUUID()}`;
      const sso = await browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest({ id: requestId, ...request }), 'r2')}`);
      const html = await sso.text();
      expect(sso.status, html).to.equal(200);
      const { action, fields } = postedForm(html);
      expect(action).to.equal(acs);
      expect(fields.RelayState).to.equal('r2');
      const xml = Buffer.from(fields.SAMLResponse!, 'base64').toString('utf8');
      expect(signedBy(xml, 'Response', certificate!)).to.equal(true);
      const document = parse(xml);
      expect(document.getElementsByTagNameNS('*', 'Assertion')).to.have.length(0);
      expect(document.documentElement!.getAttribute('InResponseTo')).to.equal(requestId);
      expect(Array.from(document.getElementsByTagNameNS('*', 'StatusCode')).map((node) => node.getAttribute('Value'))).to.deep.equal([
        'urn:oasis:names:tc:SAML:2.0:status:Requester',
        'urn:oasis:names:tc:SAML:2.0:status:InvalidNameIDPolicy',
      ]);
    };
    await refused({ nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:X509SubjectName' }, ACS);
    // The directory was set to opaque ids: asking for the user's address does not get it.
    await refused({ issuer: 'urn:example:staffdir', nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress' }, 'https://staffdir.example.com/acs');
  });

  describe('of a service provider that must sign its requests', () => {
    const request = () => authnRequest({ issuer: SIGNING_SP, id: `_${randomUUID()}` });

    /** The HTTP-Redirect binding's signature over the encoded SAMLRequest, RelayState and SigAlg. */
    const signedQuery = (xml: string, relayState: string, key = spKey) => {
      const unsigned = new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.from(xml)).toString('base64'), RelayState: relayState, SigAlg: RSA_SHA256 }).toString();
      return `${unsigned}&Signature=${encodeURIComponent(sign('sha256', Buffer.from(unsigned), key).toString('base64'))}`;
    };

    /** The HTTP-POST binding's enveloped signature of the request, after its Issuer. */
    const signedXml = (xml: string) => {
      const signer = new SignedXml({ privateKey: spKey.export({ type: 'pkcs8', format: 'pem' }), signatureAlgorithm: RSA_SHA256, canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#' });
      signer.addReference({
        xpath: "/*[local-name(.)='AuthnRequest']",
        transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
        digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      });
      signer.computeSignature(xml, { prefix: 'ds', location: { reference: "/*[local-name(.)='AuthnRequest']/*[local-name(.)='Issuer']", action: 'after' } });
      return signer.getSignedXml();
    };

    const post = (xml: string) => fetch(`${server.url}/saml/sso`, { method: 'POST', body: new URLSearchParams({ SAMLRequest: Buffer.from(xml).toString('base64') }), redirect: 'manual' });

    it('takes a request signed with its key over HTTP-Redirect, and refuses it unsigned, tampered with or signed by another key', async () => {
      const xml = request();
      expect((await fetch(`${server.url}/saml/sso?${signedQuery(xml, 'r')}`, { redirect: 'manual' })).status).to.equal(303);
      const unsigned = await fetch(`${server.url}/saml/sso?${redirectQuery(xml, 'r')}`, { redirect: 'manual' });
      expect(unsigned.status).to.equal(400);
      expect(await unsigned.text()).to.include('CRM must sign its requests');
      const tampered = signedQuery(xml, 'r').replace('RelayState=r', 'RelayState=x');
      expect((await fetch(`${server.url}/saml/sso?${tampered}`, { redirect: 'manual' })).status).to.equal(400);
      const { privateKey: other } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
      const otherKey = createPrivateKey({ key: (await exportJWK(other)) as never, format: 'jwk' });
      expect((await fetch(`${server.url}/saml/sso?${signedQuery(xml, 'r', otherKey)}`, { redirect: 'manual' })).status).to.equal(400);
    });

    it('takes a request signed with its key over HTTP-POST, and refuses it unsigned, altered or wrapped', async () => {
      const xml = signedXml(request());
      expect((await post(xml)).status).to.equal(303);
      expect((await post(request())).status).to.equal(400);
      const altered = xml.replace(`<saml:Issuer>${SIGNING_SP}</saml:Issuer>`, `<saml:Issuer>${SIGNING_SP}</saml:Issuer><samlp:Scoping/>`);
      expect(altered).to.not.equal(xml);
      expect((await post(altered)).status).to.equal(400);
      // The signed request tucked inside another one naming an ACS of the attacker's: the signature is valid, but not of the root.
      const id = /ID="([^"]+)"/.exec(xml)![1]!;
      const wrapper = `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${SIGNING_SP}</saml:Issuer><samlp:Extensions>${xml}</samlp:Extensions></samlp:AuthnRequest>`;
      expect((await post(wrapper)).status).to.equal(400);
    });
  });

  describe('refuses, with a page saying why', () => {
    const refused = async (query: string, status = 400) => {
      const res = await fetch(`${server.url}/saml/sso?${query}`, { redirect: 'manual' });
      const body = await res.text();
      expect(res.status, body).to.equal(status);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      return body;
    };

    it('an AuthnRequest from an unknown service provider', async () => {
      expect(await refused(redirectQuery(authnRequest({ issuer: 'https://intruder.example.com/sp' })))).to.include('no SAML application is registered with the entity id https://intruder.example.com/sp');
    });

    it('an assertion consumer service the application has not registered', async () => {
      expect(await refused(redirectQuery(authnRequest({ acs: 'https://intruder.example.com/acs' })))).to.include('https://intruder.example.com/acs is not an assertion consumer service registered for Company wiki');
    });

    it('a request meant for another identity provider', async () => {
      expect(await refused(redirectQuery(authnRequest({ destination: 'https://other-idp.example.com/sso' })))).to.include('not for this identity provider');
    });

    it('XML with a document type declaration or an external entity', async () => {
      const dtd = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "expanded">]>';
      expect(await refused(redirectQuery(authnRequest({ extra: dtd })))).to.include('document type declarations (DTD) and entities are not accepted');
      const external = '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>';
      const res = await fetch(`${server.url}/saml/sso`, { method: 'POST', body: new URLSearchParams({ SAMLRequest: Buffer.from(authnRequest({ extra: external })).toString('base64') }), redirect: 'manual' });
      expect(res.status).to.equal(400);
      expect(await res.text()).to.include('not accepted');
    });

    it('a message that is not an AuthnRequest, or not SAML at all', async () => {
      expect(await refused(redirectQuery('<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_1" Version="2.0"/>'))).to.include('expected a SAML 2.0 AuthnRequest');
      expect(await refused('SAMLRequest=not-deflate!')).to.include('SAMLRequest is not base64');
      expect(await refused('')).to.include('SAMLRequest is missing');
    });

    it('a stopped application, with the product’s page saying so', async () => {
      const browser = new CookieBrowser();
      const sso = await browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest({ issuer: 'urn:example:archive' }))}`);
      expect(sso.status).to.equal(303);
      const end = await browser.follow(new URL(sso.headers.get('location')!, server.url).toString());
      expect(end.status).to.equal(503);
      expect(end.body).to.include('Old archive is stopped');
    });
  });

  // Last: it changes the keys the other tests sign and verify with.
  describe('when the signing keys rotate', () => {
    it('publishes the new key and the retiring one, and signs with the new one', async () => {
      const before = await metadataCertificates();
      expect(new Set(before).size).to.equal(1);
      const { context } = server.server;
      await rotateSigningKeys(context, 3600);
      // As `npm run keys:rotate` does: every node's caches are told.
      context.broadcast.publish('keys.changed', {});

      const res = await fetch(`${server.url}/saml/metadata`);
      const xml = await res.text();
      const root = parse(xml).documentElement!;
      const published = Array.from(root.getElementsByTagNameNS('*', 'KeyDescriptor')).map(
        (node) => node.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate')[0]!.textContent!.trim(),
      );
      expect(published).to.have.length(2);
      expect(published, 'the retiring key stays published').to.include(before[0]);
      const fresh = published.find((certificate) => certificate !== before[0])!;
      // The metadata is signed with the new key, which signs assertions from now on.
      const signature = Array.from(root.childNodes).find((node) => (node as Element).localName === 'Signature') as Element;
      const signedWith = signature.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate')[0]!.textContent!.trim();
      expect(signedWith).to.equal(fresh);
      const verifier = new SignedXml({ publicCert: `-----BEGIN CERTIFICATE-----\n${fresh}\n-----END CERTIFICATE-----\n`, getCertFromKeyInfo: () => null });
      verifier.loadSignature(signature);
      expect(verifier.checkSignature(xml)).to.equal(true);
    });
  });
});

describe('SAML single logout', function () {
  this.timeout(120_000);
  const WIKI = { entityId: 'https://wiki.example.com/saml/metadata', acs: 'https://wiki.example.com/saml/acs', slo: 'https://wiki.example.com/saml/slo' };
  const CRM = { entityId: 'https://crm.example.com/saml', acs: 'https://crm.example.com/saml/acs', slo: 'https://crm.example.com/saml/slo' };
  const NOTES_SECRET = 'notes-secret-0123456789-abcdefghijklmn';
  let server: TestServer;
  /** The key the CRM signs its messages with (its certificate is registered). */
  let crmKey: KeyObject;
  /** What the OIDC application's back-channel logout URI received. */
  const backchannel: string[] = [];
  let receiver: http.Server;

  const bootstrap = (crmCertificate: string, backchannelUri: string) => `
areas: [{ name: Default, default: true }]
tenants: [{ title: ACME, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - id: wiki
    name: wiki
    displayName: Company wiki
    protocol: saml
    saml:
      entityId: '${WIKI.entityId}'
      assertionConsumerServices: [{ url: '${WIKI.acs}' }]
      singleLogoutUrl: '${WIKI.slo}'
    roles: [{ name: Reader }]
  - id: crm
    name: crm
    displayName: CRM
    protocol: saml
    saml:
      entityId: '${CRM.entityId}'
      assertionConsumerServices: [{ url: '${CRM.acs}' }]
      singleLogoutUrl: '${CRM.slo}'
      wantAuthnRequestsSigned: true
      certificate: |
${crmCertificate
  .trim()
  .split('\n')
  .map((line) => `        ${line}`)
  .join('\n')}
    roles: [{ name: Reader }]
  - id: notes
    name: notes
    displayName: Notes
    type: confidential
    secret: '${NOTES_SECRET}'
    firstParty: true
    redirectUris: ['\${url}/notes/callback']
    backchannelLogoutUri: '${backchannelUri}'
    roles: [{ name: Reader }]
users:
  - userName: alice@example.com
    firstName: Alice
    lastName: Martin
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: ACME, application: wiki, roles: [Reader] }
      - { tenant: ACME, application: crm, roles: [Reader] }
      - { tenant: ACME, application: notes, roles: [Reader] }
`;

  before(async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'crm-slo' };
    crmKey = createPrivateKey({ key: jwk as never, format: 'jwk' });
    const certificate = await certificateFor(jwk, new Date(), 'crm.example.com');
    const port = await freePort();
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        backchannel.push(body);
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    server = await startTestServer({ bootstrap: bootstrap(certificate.toString('pem'), `http://127.0.0.1:${port}/backchannel`) });
  });
  after(async () => {
    await server?.stop();
    receiver?.close();
  });

  const idpCertificate = async (): Promise<string> => {
    const xml = await (await fetch(`${server.url}/saml/metadata`)).text();
    return parse(xml).getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate')[0]!.textContent!.trim();
  };

  /** The HTTP-Redirect binding's query, signed with the CRM's key (or another one). */
  const signedQuery = (name: 'SAMLRequest' | 'SAMLResponse', xml: string, relayState?: string, key = crmKey) => {
    const unsigned = new URLSearchParams({ [name]: deflateRawSync(Buffer.from(xml)).toString('base64'), ...(relayState ? { RelayState: relayState } : {}), SigAlg: RSA_SHA256 }).toString();
    return `${unsigned}&Signature=${encodeURIComponent(sign('sha256', Buffer.from(unsigned), key).toString('base64'))}`;
  };
  const unsignedQuery = (name: 'SAMLRequest' | 'SAMLResponse', xml: string, relayState?: string) =>
    new URLSearchParams({ [name]: deflateRawSync(Buffer.from(xml)).toString('base64'), ...(relayState ? { RelayState: relayState } : {}) }).toString();

  const logoutRequest = (options: { issuer: string; nameId?: string; sessionIndex?: string; destination?: string; id?: string; extra?: string }) =>
    `${options.extra ?? ''}<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${options.id ?? `_${randomUUID()}`}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${options.destination ?? `${server.url}/saml/slo`}"><saml:Issuer>${options.issuer}</saml:Issuer><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${options.nameId ?? 'alice@example.com'}</saml:NameID>${options.sessionIndex ? `<samlp:SessionIndex>${options.sessionIndex}</samlp:SessionIndex>` : ''}</samlp:LogoutRequest>`;

  const logoutResponse = (options: { issuer: string; inResponseTo: string; status?: string }) =>
    `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${server.url}/saml/slo" InResponseTo="${options.inResponseTo}"><saml:Issuer>${options.issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="${options.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status></samlp:LogoutResponse>`;

  /**
   * A message the identity provider sends by the HTTP-Redirect binding (the Location of its answer):
   * where to, its XML, RelayState, and whether its query signature is the identity provider's.
   */
  async function redirected(answer: Response, name: 'SAMLRequest' | 'SAMLResponse') {
    expect(answer.status, await answer.clone().text()).to.equal(303);
    const location = answer.headers.get('location')!;
    const [address, query] = [location.slice(0, location.indexOf('?')), location.slice(location.indexOf('?') + 1)];
    const raw = new Map(query.split('&').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const));
    const signed = [name, 'RelayState', 'SigAlg'].filter((key) => raw.has(key)).map((key) => `${key}=${raw.get(key)}`).join('&');
    const certificate = new X509Certificate(Buffer.from(await idpCertificate(), 'base64'));
    const signatureValid =
      decodeURIComponent(raw.get('SigAlg') ?? '') === RSA_SHA256 && verify('sha256', Buffer.from(signed), certificate.publicKey, Buffer.from(decodeURIComponent(raw.get('Signature') ?? ''), 'base64'));
    const params = new URLSearchParams(query);
    const xml = inflateRawSync(Buffer.from(params.get(name)!, 'base64')).toString('utf8');
    return { address, xml, document: parse(xml), relayState: params.get('RelayState') ?? undefined, signatureValid };
  }

  const statusCodes = (document: Document) => Array.from(document.getElementsByTagNameNS('*', 'StatusCode')).map((node) => node.getAttribute('Value'));

  /** The browser signs in to a SAML application (the CRM's request signed); answers how the assertion names the user and the session. */
  async function signInTo(browser: CookieBrowser, sp: typeof WIKI): Promise<{ nameId: string; sessionIndex: string }> {
    const request = authnRequest({ issuer: sp.entityId, acs: sp.acs });
    const query = sp === CRM ? signedQuery('SAMLRequest', request) : redirectQuery(request);
    const sso = await browser.get(`${server.url}/saml/sso?${query}`);
    expect(sso.status, await sso.clone().text()).to.equal(303);
    let at = await browser.follow(new URL(sso.headers.get('location')!, server.url).toString(), (url) => url.pathname === '/account/login' || url.pathname === '/saml/continue');
    if (new URL(at.url).pathname === '/account/login') at = await browser.follow(await signIn(browser, new URL(at.url), 'alice@example.com', PASSWORD), (url) => url.pathname === '/saml/continue');
    const page = await browser.get(at.url);
    const html = await page.text();
    expect(page.status, html).to.equal(200);
    const document = parse(Buffer.from(postedForm(html).fields.SAMLResponse!, 'base64').toString('utf8'));
    return {
      nameId: document.getElementsByTagNameNS('*', 'NameID')[0]!.textContent!,
      sessionIndex: document.getElementsByTagNameNS('*', 'AuthnStatement')[0]!.getAttribute('SessionIndex')!,
    };
  }

  /** Whether a new AuthnRequest of the wiki in this browser shows the sign-in page (no provider session). */
  async function asksToSignIn(browser: CookieBrowser): Promise<boolean> {
    const sso = await browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest({ issuer: WIKI.entityId }))}`);
    const at = await browser.follow(new URL(sso.headers.get('location')!, server.url).toString(), (url) => url.pathname === '/account/login' || url.pathname === '/saml/continue');
    return new URL(at.url).pathname === '/account/login';
  }

  /** The browser signs in to the OIDC application too (a code at its redirect URI, in the same provider session). */
  async function signInToNotes(browser: CookieBrowser): Promise<void> {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URLSearchParams({ client_id: 'notes', response_type: 'code', scope: 'openid', redirect_uri: `${server.url}/notes/callback`, state: 'n1', code_challenge: challenge, code_challenge_method: 'S256' });
    const back = await browser.follow(`${server.url}/oidc/auth?${authorize}`, (url) => url.pathname === '/notes/callback');
    expect(new URL(back.url).searchParams.get('code'), JSON.stringify(back.hops)).to.be.a('string');
  }

  it('publishes single logout over HTTP-Redirect and HTTP-POST in the metadata', async () => {
    const root = parse(await (await fetch(`${server.url}/saml/metadata`)).text()).documentElement!;
    const slo = Array.from(root.getElementsByTagNameNS('*', 'SingleLogoutService')).map((node) => [node.getAttribute('Binding'), node.getAttribute('Location')]);
    expect(slo).to.deep.equal([
      ['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', `${server.url}/saml/slo`],
      ['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', `${server.url}/saml/slo`],
    ]);
  });

  it('ends the session at a signed LogoutRequest, tells the other SAML application and the back-channel OIDC application, then answers the requester with a signed Success', async () => {
    const browser = new CookieBrowser();
    const wiki = await signInTo(browser, WIKI);
    const crm = await signInTo(browser, CRM);
    await signInToNotes(browser);
    backchannel.length = 0;

    const requestId = `_${randomUUID()}`;
    const slo = await browser.get(`${server.url}/saml/slo?${signedQuery('SAMLRequest', logoutRequest({ issuer: CRM.entityId, id: requestId, nameId: crm.nameId, sessionIndex: crm.sessionIndex }), 'crm-page')}`);
    // The wiki is told first, by a LogoutRequest the identity provider signed, naming the user and session it was given.
    const toWiki = await redirected(slo, 'SAMLRequest');
    expect(toWiki.address).to.equal(WIKI.slo);
    expect(toWiki.signatureValid, 'signed by the identity provider').to.equal(true);
    const request = toWiki.document.documentElement!;
    expect(request.localName).to.equal('LogoutRequest');
    expect(request.getAttribute('Destination')).to.equal(WIKI.slo);
    expect(toWiki.document.getElementsByTagNameNS('*', 'Issuer')[0]!.textContent).to.equal(`${server.url}/saml`);
    expect(toWiki.document.getElementsByTagNameNS('*', 'NameID')[0]!.textContent).to.equal(wiki.nameId);
    expect(toWiki.document.getElementsByTagNameNS('*', 'SessionIndex')[0]!.textContent).to.equal(wiki.sessionIndex);
    expect(toWiki.relayState).to.be.a('string');

    // The provider session is over already: the OIDC application was told on its back-channel.
    expect(backchannel, 'the back-channel logout URI was called').to.have.length(1);
    expect(decodeJwt(new URLSearchParams(backchannel[0]).get('logout_token')!).events).to.have.property('http://schemas.openid.net/event/backchannel-logout');
    expect(browser.cookie(server.url, 'gh_session'), 'the session cookie is cleared').to.equal(undefined);

    // The wiki answers; the CRM gets its signed answer, with its RelayState.
    const fromWiki = await browser.get(`${server.url}/saml/slo?${unsignedQuery('SAMLResponse', logoutResponse({ issuer: WIKI.entityId, inResponseTo: request.getAttribute('ID')! }), toWiki.relayState)}`);
    const toCrm = await redirected(fromWiki, 'SAMLResponse');
    expect(toCrm.address).to.equal(CRM.slo);
    expect(toCrm.signatureValid, 'signed by the identity provider').to.equal(true);
    expect(toCrm.relayState).to.equal('crm-page');
    expect(toCrm.document.documentElement!.localName).to.equal('LogoutResponse');
    expect(toCrm.document.documentElement!.getAttribute('InResponseTo')).to.equal(requestId);
    expect(toCrm.document.documentElement!.getAttribute('Destination')).to.equal(CRM.slo);
    expect(statusCodes(toCrm.document)).to.deep.equal(['urn:oasis:names:tc:SAML:2.0:status:Success']);

    // The same answer again is refused: the sign-out is over.
    expect((await browser.get(`${server.url}/saml/slo?${unsignedQuery('SAMLResponse', logoutResponse({ issuer: WIKI.entityId, inResponseTo: request.getAttribute('ID')! }), toWiki.relayState)}`)).status).to.equal(400);
    expect(await asksToSignIn(browser), 'a new sign-in asks for the password').to.equal(true);
  });

  it('answers PartialLogout when another application does not confirm, and takes an HTTP-POST request back through a navigation carrying the session', async () => {
    const browser = new CookieBrowser();
    await signInTo(browser, WIKI);
    const crm = await signInTo(browser, CRM);
    const signer = new SignedXml({ privateKey: crmKey.export({ type: 'pkcs8', format: 'pem' }), signatureAlgorithm: RSA_SHA256, canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#' });
    signer.addReference({
      xpath: "/*[local-name(.)='LogoutRequest']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    signer.computeSignature(logoutRequest({ issuer: CRM.entityId, nameId: crm.nameId }), { prefix: 'ds', location: { reference: "/*[local-name(.)='LogoutRequest']/*[local-name(.)='Issuer']", action: 'after' } });
    const posted = await browser.request('POST', `${server.url}/saml/slo`, { form: { SAMLRequest: Buffer.from(signer.getSignedXml()).toString('base64') }, from: 'http://127.0.0.1:9/' });
    expect(posted.status, await posted.clone().text()).to.equal(303);
    const resume = new URL(posted.headers.get('location')!, server.url);
    expect(resume.pathname).to.equal('/saml/slo');
    const toWiki = await redirected(await browser.get(resume.toString()), 'SAMLRequest');
    expect(toWiki.address).to.equal(WIKI.slo);
    const failed = logoutResponse({ issuer: WIKI.entityId, inResponseTo: toWiki.document.documentElement!.getAttribute('ID')!, status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' });
    const toCrm = await redirected(await browser.get(`${server.url}/saml/slo?${unsignedQuery('SAMLResponse', failed, toWiki.relayState)}`), 'SAMLResponse');
    expect(toCrm.address).to.equal(CRM.slo);
    expect(statusCodes(toCrm.document)).to.deep.equal(['urn:oasis:names:tc:SAML:2.0:status:Success', 'urn:oasis:names:tc:SAML:2.0:status:PartialLogout']);
    expect(await asksToSignIn(browser)).to.equal(true);
  });

  it('tells the session’s SAML applications when the portal’s sign-out ends the session at the provider’s end-session', async () => {
    const browser = new CookieBrowser();
    const wiki = await signInTo(browser, WIKI);
    await signInTo(browser, CRM);
    const page = await browser.get(`${server.url}/oidc/session/end`, `${server.url}/`);
    const html = await page.text();
    const action = /action="([^"]+)"/.exec(html)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    let answer = await browser.request('POST', new URL(action, server.url).toString(), { form: { xsrf, logout: 'yes' }, from: `${server.url}/oidc/session/end` });
    // Each application in turn (in no particular order), each answering back.
    const told: string[] = [];
    for (let step = 0; step < 2; step++) {
      const request = await redirected(answer, 'SAMLRequest');
      expect(request.signatureValid).to.equal(true);
      told.push(request.address);
      const inResponseTo = request.document.documentElement!.getAttribute('ID')!;
      if (request.address === WIKI.slo) {
        expect(request.document.getElementsByTagNameNS('*', 'SessionIndex')[0]!.textContent).to.equal(wiki.sessionIndex);
        answer = await browser.get(`${server.url}/saml/slo?${unsignedQuery('SAMLResponse', logoutResponse({ issuer: WIKI.entityId, inResponseTo }), request.relayState)}`);
      } else {
        // The CRM signs its answer, as it must.
        answer = await browser.get(`${server.url}/saml/slo?${signedQuery('SAMLResponse', logoutResponse({ issuer: CRM.entityId, inResponseTo }), request.relayState)}`);
      }
    }
    expect(told.sort()).to.deep.equal([CRM.slo, WIKI.slo]);
    const end = answer;
    expect(end.status).to.equal(303);
    expect(new URL(end.headers.get('location')!, server.url).pathname, 'where the provider sends the signed-out browser').to.equal('/oidc/session/end/success');
    expect(await asksToSignIn(browser)).to.equal(true);
  });

  it('refuses an unsigned, forged or tampered LogoutRequest from an application that must sign, and the session lives on', async () => {
    const browser = new CookieBrowser();
    const crm = await signInTo(browser, CRM);
    const xml = logoutRequest({ issuer: CRM.entityId, nameId: crm.nameId, sessionIndex: crm.sessionIndex });
    const unsigned = await browser.get(`${server.url}/saml/slo?${unsignedQuery('SAMLRequest', xml, 'r')}`);
    expect(unsigned.status).to.equal(400);
    expect(await unsigned.text()).to.include('CRM must sign its logout requests');
    const { privateKey: other } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const forged = await browser.get(`${server.url}/saml/slo?${signedQuery('SAMLRequest', xml, 'r', createPrivateKey({ key: (await exportJWK(other)) as never, format: 'jwk' }))}`);
    expect(forged.status).to.equal(400);
    const tampered = await browser.get(`${server.url}/saml/slo?${signedQuery('SAMLRequest', xml, 'r').replace('RelayState=r', 'RelayState=x')}`);
    expect(tampered.status).to.equal(400);
    expect(await asksToSignIn(browser), 'still signed in').to.equal(false);
  });

  it('refuses an unsigned LogoutRequest that does not name the SessionIndex the application was given', async () => {
    const browser = new CookieBrowser();
    await signInTo(browser, WIKI);
    const res = await browser.get(`${server.url}/saml/slo?${unsignedQuery('SAMLRequest', logoutRequest({ issuer: WIKI.entityId }))}`);
    expect(res.status).to.equal(400);
    expect(await res.text()).to.include('must name the SessionIndex');
    const wrong = await browser.get(`${server.url}/saml/slo?${unsignedQuery('SAMLRequest', logoutRequest({ issuer: WIKI.entityId, sessionIndex: '_guessed' }))}`);
    const answer = await redirected(wrong, 'SAMLResponse');
    expect(statusCodes(answer.document), 'another session: not ended').to.deep.equal(['urn:oasis:names:tc:SAML:2.0:status:Responder', 'urn:oasis:names:tc:SAML:2.0:status:UnknownPrincipal']);
    expect(await asksToSignIn(browser), 'still signed in').to.equal(false);
  });

  it('refuses a LogoutRequest from an unknown application, meant for another identity provider, or carrying a DTD', async () => {
    const refused = async (query: string) => {
      const res = await fetch(`${server.url}/saml/slo?${query}`, { redirect: 'manual' });
      expect(res.status).to.equal(400);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      return res.text();
    };
    expect(await refused(unsignedQuery('SAMLRequest', logoutRequest({ issuer: 'https://intruder.example.com/sp', sessionIndex: '_1' })))).to.include('no SAML application is registered with the entity id https://intruder.example.com/sp');
    expect(await refused(signedQuery('SAMLRequest', logoutRequest({ issuer: CRM.entityId, destination: 'https://other-idp.example.com/slo' })))).to.include('not for this identity provider');
    expect(await refused(signedQuery('SAMLRequest', logoutRequest({ issuer: CRM.entityId, extra: '<!DOCTYPE r [<!ENTITY x "expanded">]>' })))).to.include('document type declarations (DTD) and entities are not accepted');
    expect(await refused('')).to.include('SAMLRequest or SAMLResponse is missing');
  });

  it('answers Success at once when nobody is signed in in this browser', async () => {
    const requestId = `_${randomUUID()}`;
    const res = await fetch(`${server.url}/saml/slo?${signedQuery('SAMLRequest', logoutRequest({ issuer: CRM.entityId, id: requestId }), 'r2')}`, { redirect: 'manual' });
    const answer = await redirected(res, 'SAMLResponse');
    expect(answer.address).to.equal(CRM.slo);
    expect(answer.relayState).to.equal('r2');
    expect(answer.document.documentElement!.getAttribute('InResponseTo')).to.equal(requestId);
    expect(statusCodes(answer.document)).to.deep.equal(['urn:oasis:names:tc:SAML:2.0:status:Success']);
  });
});

describe('SAML sign-in started from the portal, encrypted assertions and disclaimers', function () {
  this.timeout(120_000);
  const WIKI_ACS = 'https://wiki.example.com/saml/acs';
  const VAULT = { entityId: 'https://vault.example.com/saml', acs: 'https://vault.example.com/saml/acs' };
  const HANDBOOK = { entityId: 'urn:example:handbook', acs: 'https://handbook.example.com/saml/acs' };
  let server: TestServer;
  /** The vault's own key: assertions for it are encrypted for its certificate. */
  let vaultKey: KeyObject;

  const indented = (pem: string) =>
    pem
      .trim()
      .split('\n')
      .map((line) => `        ${line}`)
      .join('\n');

  const bootstrap = (vaultCertificate: string) => `
areas: [{ name: Default, default: true }]
tenants: [{ title: ACME, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - id: wiki
    name: wiki
    displayName: Company wiki
    protocol: saml
    privateUrl: https://wiki.example.com/
    saml:
      entityId: '${SP_ENTITY_ID}'
      assertionConsumerServices: [{ url: '${WIKI_ACS}' }, { url: '${OTHER_ACS}' }]
      defaultRelayState: /welcome
      attributes: [{ source: email, name: mail }]
    roles: [{ name: Reader }]
  - id: archive
    name: archive
    displayName: Old archive
    protocol: saml
    status: Stopped
    saml:
      entityId: 'urn:example:archive'
      assertionConsumerServices: [{ url: 'https://archive.example.com/acs' }]
    roles: [{ name: Reader }]
  - id: vault
    name: vault
    displayName: Vault
    protocol: saml
    saml:
      entityId: '${VAULT.entityId}'
      assertionConsumerServices: [{ url: '${VAULT.acs}' }]
      attributes: [{ source: email, name: mail }]
      encryptAssertions: true
      certificate: |
${indented(vaultCertificate)}
    roles: [{ name: Reader }]
  - id: handbook
    name: handbook
    displayName: Staff handbook
    protocol: saml
    saml:
      entityId: '${HANDBOOK.entityId}'
      assertionConsumerServices: [{ url: '${HANDBOOK.acs}' }]
    roles: [{ name: Reader }]
    disclaimer:
      en: 'The handbook is confidential: do not share it.'
      fr: 'Le manuel est confidentiel : ne le partagez pas.'
  - { id: payroll, name: payroll, displayName: Payroll, protocol: saml, roles: [{ name: Reader }] }
users:
${['alice', 'bob', 'carol', 'dana']
  .map(
    (name) => `  - userName: ${name}@example.com
    firstName: ${name}
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
${
  name === 'bob'
    ? '      - { tenant: ACME, application: archive, roles: [Reader] }'
    : ['wiki', 'archive', 'vault', 'handbook', 'payroll'].map((app) => `      - { tenant: ACME, application: ${app}, roles: [Reader] }`).join('\n')
}`,
  )
  .join('\n')}
`;

  before(async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'vault' };
    vaultKey = createPrivateKey({ key: jwk as never, format: 'jwk' });
    const certificate = await certificateFor(jwk, new Date(), 'vault.example.com');
    server = await startTestServer({ bootstrap: bootstrap(certificate.toString('pem')) });
  });
  after(async () => {
    await server?.stop();
  });

  const idpCertificate = async (): Promise<string> => {
    const xml = await (await fetch(`${server.url}/saml/metadata`)).text();
    return parse(xml).getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate')[0]!.textContent!.trim();
  };

  const userId = async (userName: string): Promise<string> => {
    const [row] = (await server.server.context.dataSource.query('SELECT id FROM users WHERE user_name = $1', [userName])) as Array<{ id: string }>;
    return row!.id;
  };

  /**
   * The browser goes where the identity provider sent it (`answer`, a 303), signs in as `user` when
   * asked, and comes back to `/saml/continue`: its page (the form posting to the SP, the disclaimer,
   * or a refusal).
   */
  async function throughSignIn(browser: CookieBrowser, answer: Response, user: string): Promise<{ status: number; html: string; csp: string }> {
    expect(answer.status, await answer.clone().text()).to.equal(303);
    const stop = (url: URL) => url.pathname === '/account/login' || url.pathname === '/saml/continue';
    let at = await browser.follow(new URL(answer.headers.get('location')!, server.url).toString(), stop);
    if (new URL(at.url).pathname === '/account/login') at = await browser.follow(await signIn(browser, new URL(at.url), user, PASSWORD), stop);
    expect(new URL(at.url).pathname, JSON.stringify(at.hops)).to.equal('/saml/continue');
    const page = await browser.get(at.url);
    return { status: page.status, html: await page.text(), csp: page.headers.get('content-security-policy') ?? '' };
  }

  const responseOf = (html: string) => Buffer.from(postedForm(html).fields.SAMLResponse!, 'base64').toString('utf8');

  describe('from the portal (IdP-initiated)', () => {
    it('opens a SAML application’s tile through the launch address: sign-in, then an unsolicited signed response at the default ACS with its RelayState', async () => {
      const tiles = await homeApplications(server.server.context, await userId('alice@example.com'));
      const wiki = tiles.find((tile) => tile.id === 'wiki')!;
      expect(wiki.privateUrl, 'the tile goes through the identity provider').to.equal(`${server.url}/saml/launch/wiki`);
      // One whose SAML settings are still to come has a tile, but nowhere to open yet.
      expect(tiles.find((tile) => tile.id === 'payroll')).to.include({ hasAccess: true, privateUrl: null });

      const browser = new CookieBrowser();
      const { status, html, csp } = await throughSignIn(browser, await browser.get(wiki.privateUrl!), 'alice@example.com');
      expect(status, html).to.equal(200);
      const { action, fields } = postedForm(html);
      expect(action, 'the default (first) assertion consumer service').to.equal(WIKI_ACS);
      expect(fields.RelayState).to.equal('/welcome');
      expect(csp).to.include('form-action https://wiki.example.com');
      const xml = responseOf(html);
      const certificate = await idpCertificate();
      expect(signedBy(xml, 'Response', certificate), 'the response is signed').to.equal(true);
      expect(signedBy(xml, 'Assertion', certificate), 'the assertion is signed').to.equal(true);
      const document = parse(xml);
      expect(document.documentElement!.hasAttribute('InResponseTo'), 'unsolicited').to.equal(false);
      const confirmation = document.getElementsByTagNameNS('*', 'SubjectConfirmationData')[0]!;
      expect(confirmation.hasAttribute('InResponseTo')).to.equal(false);
      expect(confirmation.getAttribute('Recipient')).to.equal(WIKI_ACS);
      expect(document.getElementsByTagNameNS('*', 'Audience')[0]!.textContent).to.equal(SP_ENTITY_ID);
      expect(document.getElementsByTagNameNS('*', 'NameID')[0]!.textContent).to.equal('alice@example.com');

      // Signed in already: the next launch posts at once, without the sign-in page.
      const again = await throughSignIn(browser, await browser.get(wiki.privateUrl!), 'alice@example.com');
      expect(postedForm(again.html).action).to.equal(WIKI_ACS);
    });

    it('refuses a stopped application with the product’s page, before any sign-in', async () => {
      const browser = new CookieBrowser();
      const launch = await browser.get(`${server.url}/saml/launch/archive`);
      expect(launch.status).to.equal(303);
      const end = await browser.follow(new URL(launch.headers.get('location')!, server.url).toString());
      expect(end.status).to.equal(503);
      expect(end.body).to.include('Old archive is stopped');
    });

    it('refuses a user without access to the application, once signed in, and an unknown application', async () => {
      const browser = new CookieBrowser();
      const { status, html } = await throughSignIn(browser, await browser.get(`${server.url}/saml/launch/wiki`), 'bob@example.com');
      expect(status).to.equal(403);
      expect(html).to.include('you have no access to Company wiki');
      expect(html, 'nothing is posted to the application').to.not.include('SAMLResponse');

      const unknown = await fetch(`${server.url}/saml/launch/intranet`, { redirect: 'manual' });
      expect(unknown.status).to.equal(404);
      expect(await unknown.text()).to.include('no SAML application is named intranet');
      // An OpenID Connect application is not launched this way.
      expect((await fetch(`${server.url}/saml/launch/identity`, { redirect: 'manual' })).status).to.equal(404);
    });
  });

  describe('encrypted assertions', () => {
    it('signs the assertion, then encrypts it (AES-256-GCM, RSA-OAEP) for the service provider’s certificate, inside a signed response', async () => {
      const browser = new CookieBrowser();
      const requestId = `_${randomUUID()}`;
      const sso = await browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest({ issuer: VAULT.entityId, id: requestId }))}`);
      const { status, html } = await throughSignIn(browser, sso, 'alice@example.com');
      expect(status, html).to.equal(200);
      expect(postedForm(html).action).to.equal(VAULT.acs);
      const xml = responseOf(html);
      const certificate = await idpCertificate();
      expect(signedBy(xml, 'Response', certificate), 'the response is signed').to.equal(true);
      const document = parse(xml);
      expect(document.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Assertion'), 'no assertion in clear').to.have.length(0);
      expect(xml, 'nothing of the user in clear').to.not.include('alice@example.com');
      const encrypted = document.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'EncryptedAssertion');
      expect(encrypted).to.have.length(1);
      const methods = Array.from(encrypted[0]!.getElementsByTagNameNS('http://www.w3.org/2001/04/xmlenc#', 'EncryptionMethod')).map((node) => node.getAttribute('Algorithm'));
      expect(methods).to.have.members(['http://www.w3.org/2009/xmlenc11#aes256-gcm', 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p']);

      const encryptedData = encrypted[0]!.getElementsByTagNameNS('http://www.w3.org/2001/04/xmlenc#', 'EncryptedData')[0]!;
      const decrypt = (key: KeyObject) =>
        new Promise<string>((resolve, reject) =>
          xmlenc.decrypt(encryptedData.toString(), { key: key.export({ type: 'pkcs8', format: 'pem' }) }, (error, result) => (error ? reject(error) : resolve(result!))),
        );
      const assertion = await decrypt(vaultKey);
      expect(signedBy(assertion, 'Assertion', certificate), 'the decrypted assertion carries the identity provider’s signature').to.equal(true);
      const inner = parse(assertion);
      expect(inner.getElementsByTagNameNS('*', 'NameID')[0]!.textContent).to.equal('alice@example.com');
      expect(inner.getElementsByTagNameNS('*', 'SubjectConfirmationData')[0]!.getAttribute('InResponseTo')).to.equal(requestId);

      const { privateKey: other } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
      const otherKey = createPrivateKey({ key: (await exportJWK(other)) as never, format: 'jwk' });
      let failure: unknown;
      await decrypt(otherKey).catch((error: unknown) => (failure = error));
      expect(failure, 'another key cannot read it').to.be.instanceOf(Error);
    });
  });

  describe('disclaimers', () => {
    const acceptances = async (user: string) =>
      (await server.server.context.dataSource.query(
        `SELECT d.version FROM disclaimer_acceptances da JOIN disclaimers d ON d.id = da.disclaimer_id JOIN users u ON u.id = da.user_id WHERE u.user_name = $1 AND d.application_id = 'handbook'`,
        [user],
      )) as Array<{ version: number }>;

    /** The disclaimer page's answer, posted as its form does. */
    const answer = (browser: CookieBrowser, html: string, decision: 'accept' | 'decline') => {
      const { action, fields } = postedForm(html);
      expect(action).to.equal(`${server.url}/saml/disclaimer`);
      return browser.request('POST', action, { form: { ...fields, decision }, from: `${server.url}/saml/continue` });
    };

    it('asks for the application’s terms before its first assertion: declined, the SP is answered RequestDenied; accepted, it gets the assertion, and is not asked again', async () => {
      const browser = new CookieBrowser();
      const request = (id: string) => browser.get(`${server.url}/saml/sso?${redirectQuery(authnRequest({ issuer: HANDBOOK.entityId, id }))}`);
      const firstId = `_${randomUUID()}`;
      const gate = await throughSignIn(browser, await request(firstId), 'carol@example.com');
      expect(gate.status, gate.html).to.equal(200);
      expect(gate.html).to.include('The handbook is confidential: do not share it.');
      expect(gate.html, 'nothing is posted to the application yet').to.not.include('SAMLResponse');
      expect(gate.csp).to.include("form-action 'self'");

      // Another browser cannot answer for this one.
      const stranger = await new CookieBrowser().request('POST', `${server.url}/saml/disclaimer`, { form: { ...postedForm(gate.html).fields, decision: 'accept' } });
      expect(stranger.status).to.equal(400);
      expect(await acceptances('carol@example.com')).to.have.length(0);

      const declined = await answer(browser, gate.html, 'decline');
      const declinedHtml = await declined.text();
      expect(declined.status, declinedHtml).to.equal(200);
      expect(postedForm(declinedHtml).action).to.equal(HANDBOOK.acs);
      const refusal = parse(responseOf(declinedHtml));
      expect(refusal.documentElement!.getAttribute('InResponseTo')).to.equal(firstId);
      expect(refusal.getElementsByTagNameNS('*', 'Assertion')).to.have.length(0);
      expect(Array.from(refusal.getElementsByTagNameNS('*', 'StatusCode')).map((node) => node.getAttribute('Value'))).to.deep.equal([
        'urn:oasis:names:tc:SAML:2.0:status:Responder',
        'urn:oasis:names:tc:SAML:2.0:status:RequestDenied',
      ]);
      expect(await acceptances('carol@example.com')).to.have.length(0);

      // Asked again on the next request (the session is reused: no sign-in page); accepted this time.
      const secondId = `_${randomUUID()}`;
      const again = await throughSignIn(browser, await request(secondId), 'carol@example.com');
      expect(again.html).to.include('The handbook is confidential');
      const accepted = await answer(browser, again.html, 'accept');
      const acceptedHtml = await accepted.text();
      expect(accepted.status, acceptedHtml).to.equal(200);
      expect(postedForm(acceptedHtml).action).to.equal(HANDBOOK.acs);
      const xml = responseOf(acceptedHtml);
      expect(signedBy(xml, 'Assertion', await idpCertificate())).to.equal(true);
      expect(parse(xml).documentElement!.getAttribute('InResponseTo')).to.equal(secondId);
      expect(parse(xml).getElementsByTagNameNS('*', 'NameID')[0]!.textContent).to.equal('carol@example.com');
      expect(await acceptances('carol@example.com'), 'recorded as the portal and the gate API record it').to.deep.equal([{ version: 1 }]);

      // The same answer again: the pending sign-in is over.
      expect((await answer(browser, again.html, 'accept')).status).to.equal(400);

      const third = await throughSignIn(browser, await request(`_${randomUUID()}`), 'carol@example.com');
      expect(postedForm(third.html).action, 'accepted: straight to the application').to.equal(HANDBOOK.acs);
      expect(third.html).to.not.include('The handbook is confidential');
    });

    it('ends a sign-in started from the portal on the product’s page when the terms are declined', async () => {
      const browser = new CookieBrowser();
      const gate = await throughSignIn(browser, await browser.get(`${server.url}/saml/launch/handbook`), 'dana@example.com');
      expect(gate.html).to.include('The handbook is confidential');
      const declined = await answer(browser, gate.html, 'decline');
      const html = await declined.text();
      expect(declined.status).to.equal(403);
      expect(html).to.include('the terms of Staff handbook were declined');
      expect(html).to.not.include('SAMLResponse');
      expect(await acceptances('dana@example.com')).to.have.length(0);
    });
  });
});
