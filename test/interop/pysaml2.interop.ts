// Python's pysaml2 (Debian's python3-pysaml2, signatures checked by xmlsec1) as an independent
// SAML 2.0 service provider of the product: pysaml2_sp.py makes the AuthnRequest (HTTP-Redirect or
// HTTP-POST binding) and checks the responses this test, playing the user's browser, hands it.
// Responses altered or wrapped around another assertion, and a response replayed, are refused by
// it: what the product signs covers what the service provider reads. It also decrypts the assertions
// the product encrypts for it, and takes the unsolicited response of a sign-in started from the portal.
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { exportJWK, generateKeyPair } from 'jose';
import { certificateFor } from '../../services/idp/src/features/saml/keys.js';
import { freePort, startTestServer, type TestServer } from '../support/server.js';
import { CookieBrowser, killPythonRuns, PythonRun, requirePython, signIn } from './support.js';

const PASSWORD = 'Correct-Horse-42!';
const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pysaml2_sp.py');

/** The encrypting service provider: its entity id, ACS, and the certificate assertions are encrypted for. */
interface EncryptingSp {
  entityId: string;
  acs: string;
  certificate: string;
}

const bootstrap = (entityId: string, acs: string, vault: EncryptingSp) => `
areas: [{ name: Default, default: true }]
tenants: [{ title: ACME, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - id: pysaml2-sp
    name: pysaml2-sp
    displayName: Python SAML application
    protocol: saml
    saml:
      entityId: '${entityId}'
      assertionConsumerServices: [{ url: '${acs}' }]
      attributes:
        - { source: email, name: mail }
        - { source: displayName, name: displayName }
        - { source: roles, name: 'urn:example:roles' }
    roles: [{ name: Reader }, { name: Writer }]
  - id: pysaml2-vault
    name: pysaml2-vault
    displayName: Python SAML vault
    protocol: saml
    saml:
      entityId: '${vault.entityId}'
      assertionConsumerServices: [{ url: '${vault.acs}' }]
      attributes: [{ source: email, name: mail }]
      encryptAssertions: true
      certificate: |
${vault.certificate
  .trim()
  .split('\n')
  .map((line) => `        ${line}`)
  .join('\n')}
    roles: [{ name: Reader }]
users:
  - userName: alice@example.com
    firstName: Alice
    lastName: Martin
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: ACME, application: pysaml2-sp, roles: [Reader, Writer] }
      - { tenant: ACME, application: pysaml2-vault, roles: [Reader] }
`;

/** A run of pysaml2_sp.py: the SP's requests, and its verdict on each response handed to it. */
class SpRun extends PythonRun {
  constructor(args: string[]) {
    super(SCRIPT, args);
  }

  /** Hands the SP a response (base64, as posted to its ACS) and answers its verdict. */
  async check(samlResponse: string): Promise<{ ok: boolean; error?: string } & Record<string, unknown>> {
    this.write(JSON.stringify({ SAMLResponse: samlResponse }));
    return (await this.next()) as { ok: boolean; error?: string };
  }
}

const decode = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');
const encode = (xml: string) => Buffer.from(xml).toString('base64');

/** The same response with the user named in its assertion changed: the assertion's digest no longer matches. */
function altered(samlResponse: string): string {
  const xml = decode(samlResponse);
  const changed = xml.replace(/(<saml:NameID[^>]*>)alice@example\.com</, '$1mallory@example.com<');
  expect(changed).to.not.equal(xml);
  return encode(changed);
}

/**
 * Signature wrapping: an unsigned assertion naming another user takes the signed one's place, the
 * signed one tucked inside it (where a careless SP would find a valid signature and read the other).
 */
function wrapped(samlResponse: string): string {
  const xml = decode(samlResponse);
  const assertion = /<saml:Assertion\b[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
  const evil = assertion
    .replace(/<ds:Signature\b[\s\S]*<\/ds:Signature>/, '')
    .replace(/ID="[^"]+"/, 'ID="_evil"')
    .replace(/(<saml:NameID[^>]*>)alice@example\.com</, '$1mallory@example.com<')
    .replace(/(<\/saml:Issuer>)/, `$1${assertion}`);
  return encode(xml.replace(assertion, evil));
}

describe('Interoperability: Python’s pysaml2 as a SAML 2.0 service provider', function () {
  this.timeout(120_000);
  let server: TestServer;
  let entityId: string;
  let acs: string;
  let vault: EncryptingSp;
  /** Where the vault's key and certificate are written for pysaml2 (PEM files). */
  let keyDir: string;

  before(async () => {
    requirePython(['saml2'], 'python3-pysaml2 xmlsec1');
    const spPort = await freePort();
    entityId = `http://127.0.0.1:${spPort}/saml/metadata`;
    acs = `http://127.0.0.1:${spPort}/saml/acs`;
    const vaultPort = await freePort();
    const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'pysaml2-vault' };
    const certificate = (await certificateFor(jwk, new Date(), '127.0.0.1')).toString('pem');
    keyDir = mkdtempSync(path.join(tmpdir(), 'pysaml2-vault-'));
    writeFileSync(path.join(keyDir, 'key.pem'), createPrivateKey({ key: jwk as never, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(path.join(keyDir, 'cert.pem'), certificate);
    vault = { entityId: `http://127.0.0.1:${vaultPort}/saml/metadata`, acs: `http://127.0.0.1:${vaultPort}/saml/acs`, certificate };
    server = await startTestServer({ bootstrap: bootstrap(entityId, acs, vault) });
  });
  after(async () => {
    await killPythonRuns();
    await server?.stop();
    if (keyDir) rmSync(keyDir, { recursive: true, force: true });
  });

  /** The browser, from the answer of the SSO endpoint: signed in if need be, at the page posting to the ACS. */
  async function toAcs(browser: CookieBrowser, sso: Response, expectedAcs = acs): Promise<Record<string, string>> {
    expect(sso.status, await sso.clone().text()).to.equal(303);
    const stop = (url: URL) => url.pathname === '/account/login' || url.pathname === '/saml/continue';
    let at = await browser.follow(new URL(sso.headers.get('location')!, server.url).toString(), stop);
    if (new URL(at.url).pathname === '/account/login') at = await browser.follow(await signIn(browser, new URL(at.url), 'alice@example.com', PASSWORD), (url) => url.pathname === '/saml/continue');
    const page = await browser.get(at.url);
    const html = await page.text();
    expect(page.status, html).to.equal(200);
    expect(/<form[^>]*action="([^"]*)"/.exec(html)?.[1]).to.equal(expectedAcs);
    const fields: Record<string, string> = {};
    for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!.replace(/&amp;/g, '&').replace(/&#39;|&apos;/g, "'").replace(/&quot;/g, '"');
    return fields;
  }

  function expectAccepted(result: Record<string, unknown>, requestId: unknown) {
    expect(result.ok, String(result.error)).to.equal(true);
    expect(result).to.include({ name_id: 'alice@example.com', issuer: `${server.url}/saml`, in_response_to: requestId, signed_response: true, signed_assertion: true });
    const attributes = result.attributes as Record<string, string[]>;
    expect(attributes.mail).to.deep.equal(['alice@example.com']);
    expect(attributes.displayName).to.deep.equal(['Alice Martin']);
    expect(attributes['urn:example:roles']).to.deep.equal(['Reader', 'Writer']);
  }

  it('completes an SP-initiated sign-in over HTTP-Redirect; altered, wrapped and replayed responses are refused by the SP', async () => {
    const run = new SpRun(['redirect', `${server.url}/saml/metadata`, entityId, acs, 'from-redirect']);
    const { request_id: requestId, url } = (await run.next()) as { request_id: string; url: string };
    expect(url.startsWith(`${server.url}/saml/sso?SAMLRequest=`), url).to.equal(true);
    const browser = new CookieBrowser();
    const fields = await toAcs(browser, await browser.get(url));
    expect(fields.RelayState).to.equal('from-redirect');

    const alteredVerdict = await run.check(altered(fields.SAMLResponse!));
    expect(alteredVerdict.ok, 'an altered assertion').to.equal(false);
    expect(alteredVerdict.error).to.match(/^SignatureError/);
    const wrappedVerdict = await run.check(wrapped(fields.SAMLResponse!));
    expect(wrappedVerdict.ok, 'a wrapped signature').to.equal(false);
    expect(wrappedVerdict.error).to.match(/^SignatureError/);
    expectAccepted(await run.check(fields.SAMLResponse!), requestId);
    const replayed = await run.check(fields.SAMLResponse!);
    expect(replayed.ok, 'a replayed response').to.equal(false);
    expect(replayed.error).to.match(/unsolicited/i);
    run.finish();
    expect(await run.ended).to.equal(0);
  });

  it('completes an SP-initiated sign-in over HTTP-POST, reusing the session of the browser', async () => {
    const browser = new CookieBrowser();
    // A first sign-in over HTTP-Redirect opens the session.
    const first = new SpRun(['redirect', `${server.url}/saml/metadata`, entityId, acs, 'one']);
    const { request_id: firstId, url } = (await first.next()) as { request_id: string; url: string };
    expectAccepted(await first.check((await toAcs(browser, await browser.get(url))).SAMLResponse!), firstId);
    first.finish();

    const run = new SpRun(['post', `${server.url}/saml/metadata`, entityId, acs, 'from-post']);
    const { request_id: requestId, action, form } = (await run.next()) as { request_id: string; action: string; form: Record<string, string> };
    expect(action).to.equal(`${server.url}/saml/sso`);
    const sso = await browser.request('POST', action, { form, from: acs });
    const fields = await toAcs(browser, sso);
    expect(fields.RelayState).to.equal('from-post');
    expectAccepted(await run.check(fields.SAMLResponse!), requestId);
    run.finish();
    expect(await run.ended).to.equal(0);
  });

  it('decrypts, with the service provider’s key, the assertion the product signed then encrypted for it', async () => {
    const run = new SpRun(['redirect', `${server.url}/saml/metadata`, vault.entityId, vault.acs, 'vault', path.join(keyDir, 'key.pem'), path.join(keyDir, 'cert.pem')]);
    const { request_id: requestId, url } = (await run.next()) as { request_id: string; url: string };
    const browser = new CookieBrowser();
    const fields = await toAcs(browser, await browser.get(url), vault.acs);
    expect(decode(fields.SAMLResponse!)).to.include('EncryptedAssertion').and.not.include('alice@example.com');
    const result = await run.check(fields.SAMLResponse!);
    expect(result.ok, String(result.error)).to.equal(true);
    expect(result).to.include({ name_id: 'alice@example.com', in_response_to: requestId, signed_response: true, signed_assertion: true, encrypted_assertion: true });
    expect((result.attributes as Record<string, string[]>).mail).to.deep.equal(['alice@example.com']);
    run.finish();
    expect(await run.ended).to.equal(0);
  });

  it('takes the unsolicited response of a sign-in started from the portal (IdP-initiated)', async () => {
    const run = new SpRun(['unsolicited', `${server.url}/saml/metadata`, entityId, acs, '']);
    expect(await run.next()).to.deep.equal({ ready: true });
    const browser = new CookieBrowser();
    const fields = await toAcs(browser, await browser.get(`${server.url}/saml/launch/pysaml2-sp`));
    const result = await run.check(fields.SAMLResponse!);
    expect(result.ok, String(result.error)).to.equal(true);
    expect(result).to.include({ name_id: 'alice@example.com', issuer: `${server.url}/saml`, in_response_to: null, signed_response: true, signed_assertion: true });
    run.finish();
    expect(await run.ended).to.equal(0);
  });
});
