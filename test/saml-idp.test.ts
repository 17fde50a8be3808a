// The SAML 2.0 identity provider, driven from Node: metadata, SP-initiated sign-in over the
// HTTP-Redirect and HTTP-POST bindings through the product's own sign-in, and the requests it refuses.
import { createPrivateKey, randomUUID, sign, type KeyObject } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { expect } from 'chai';
import { exportJWK, generateKeyPair } from 'jose';
import { SignedXml } from 'xml-crypto';
import { certificateFor } from '../services/idp/src/features/saml/keys.js';
import { startTestServer, type TestServer } from './support/server.js';
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

function authnRequest(options: { issuer?: string; acs?: string; destination?: string; id?: string; extra?: string; attributes?: string } = {}): string {
  const acs = options.acs === undefined ? '' : ` AssertionConsumerServiceURL="${options.acs}"`;
  const destination = options.destination === undefined ? '' : ` Destination="${options.destination}"`;
  return `${options.extra ?? ''}<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${options.id ?? `_${randomUUID()}`}" Version="2.0" IssueInstant="${new Date().toISOString()}"${destination}${acs}${options.attributes ?? ''} ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"><saml:Issuer>${options.issuer ?? SP_ENTITY_ID}</saml:Issuer></samlp:AuthnRequest>`;
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
});
