// Apache httpd with Debian's mod_auth_mellon (0.18, on the Lasso library) as an independent SAML 2.0
// service provider of the product: its metadata made by the package's own mellon_create_metadata,
// a protected page signed in through the product (signed AuthnRequest over HTTP-Redirect, assertion
// over HTTP-POST), the mapped attributes in the page's MELLON_* variables, mellon's own session on
// the second visit, and its logout ending the product's session through single logout.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort, startTestServer, type TestServer } from '../support/server.js';
import { APACHE_BINARY, APACHE_MODULES, CookieBrowser, intranetPages, signIn, startApache, variables, type RunningApache } from './support.js';

const PASSWORD = 'Correct-Horse-42!';
const CREATE_METADATA = process.env.MELLON_CREATE_METADATA ?? '/usr/sbin/mellon_create_metadata';

const bootstrap = (sp: string, certificate: string) => `
areas: [{ name: Default, default: true }]
tenants: [{ title: ACME, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - id: mellon-sp
    name: mellon-sp
    displayName: Intranet behind mod_auth_mellon
    protocol: saml
    saml:
      entityId: '${sp}/mellon/metadata'
      assertionConsumerServices: [{ url: '${sp}/mellon/postResponse' }]
      singleLogoutUrl: '${sp}/mellon/logout'
      attributes:
        - { source: email, name: mail }
        - { source: displayName, name: displayName }
        - { source: roles, name: groups }
      wantAuthnRequestsSigned: true
      certificate: |
${certificate
  .trim()
  .split('\n')
  .map((line) => `        ${line}`)
  .join('\n')}
    roles: [{ name: Editor }, { name: Reader }]
users:
  - userName: alice@example.com
    firstName: Alice
    lastName: Martin
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: ACME, application: mellon-sp, roles: [Editor, Reader] }
`;

/** The page behind authentication: the MELLON_* variables the module set, one per line. */
const ATTRIBUTES_CGI = `#!/bin/sh
printf 'Content-Type: text/plain\\r\\n\\r\\n'
echo "REMOTE_USER=$REMOTE_USER"
env | grep '^MELLON_' | sort
`;

/** The service provider: mellon on the whole site (its endpoints under /mellon), authentication required under /protected. */
const site = (root: string, port: number, files: { key: string; cert: string; metadata: string; idpMetadata: string }) => `
LoadModule auth_mellon_module ${APACHE_MODULES}/mod_auth_mellon.so
<VirtualHost 127.0.0.1:${port}>
  ServerName 127.0.0.1:${port}
  DocumentRoot "${root}/htdocs"
  Alias /protected "${root}/protected"
  <Directory "${root}/htdocs">
    Require all granted
  </Directory>
  <Directory "${root}/protected">
    Options +ExecCGI
    AddHandler cgi-script .cgi
    DirectoryIndex attributes.cgi
  </Directory>
  <Location />
    MellonEnable info
    MellonEndpointPath /mellon
    MellonSPPrivateKeyFile "${files.key}"
    MellonSPCertFile "${files.cert}"
    MellonSPMetadataFile "${files.metadata}"
    MellonIdPMetadataFile "${files.idpMetadata}"
    MellonSecureCookie Off
  </Location>
  <Location /protected>
    AuthType Mellon
    MellonEnable auth
    Require valid-user
  </Location>
</VirtualHost>
`;

describe('Interoperability: Apache httpd with mod_auth_mellon as a SAML service provider', function () {
  this.timeout(120_000);
  let server: TestServer;
  let apache: RunningApache;
  let sp: string;
  /** mellon's key, certificate and metadata (made by the package's script), and the product's metadata. */
  let files: string;
  const browser = new CookieBrowser();

  before(async () => {
    for (const file of [APACHE_BINARY, `${APACHE_MODULES}/mod_auth_mellon.so`, CREATE_METADATA]) {
      if (!existsSync(file)) throw new Error(`${file} is missing: apt-get install apache2 libapache2-mod-auth-mellon`);
    }
    const port = await freePort();
    sp = `http://127.0.0.1:${port}`;
    files = mkdtempSync(path.join(tmpdir(), 'gatehouse-mellon-'));
    execFileSync(CREATE_METADATA, [`${sp}/mellon/metadata`, `${sp}/mellon`], { cwd: files, stdio: 'pipe' });
    const made = (extension: string) => path.join(files, readdirSync(files).find((name) => name.endsWith(extension))!);
    const [key, cert, metadata] = [made('.key'), made('.cert'), made('.xml')];
    // The workers run as www-data when the tests run as root: they must read the key.
    chmodSync(files, 0o755);
    for (const file of [key, cert, metadata]) chmodSync(file, 0o644);

    server = await startTestServer({ bootstrap: bootstrap(sp, readFileSync(cert, 'utf8')) });
    const idpMetadata = path.join(files, 'idp-metadata.xml');
    writeFileSync(idpMetadata, await (await fetch(`${server.url}/saml/metadata`)).text(), { mode: 0o644 });
    apache = await startApache(
      [port],
      (root) => site(root, port, { key, cert, metadata, idpMetadata }),
      (root) => intranetPages(root, 'attributes.cgi', ATTRIBUTES_CGI),
    );
  });
  after(async () => {
    await apache?.stop();
    await server?.stop();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  /** Apache's error log, for a failed assertion's message. */
  const log = () => `\n--- Apache error log ---\n${apache.errorLog().slice(-4000)}`;

  it('sends the browser to the product with a signed request, and after the sign-in serves the page with the mapped attributes', async () => {
    const toLogin = await browser.follow(`${sp}/protected/`, (url) => url.pathname === '/account/login');
    const sso = toLogin.hops.find((hop) => hop.url.startsWith(`${server.url}/saml/sso?`));
    expect(sso, `mellon did not send the browser to the product: ${JSON.stringify(toLogin.hops)}${log()}`).to.not.equal(undefined);
    const request = new URL(sso!.url);
    expect(request.searchParams.get('SAMLRequest')).to.be.a('string');
    expect(request.searchParams.get('Signature'), 'mellon signs its requests').to.be.a('string');
    expect(new URL(toLogin.url).pathname, JSON.stringify(toLogin.hops)).to.equal('/account/login');

    const atContinue = await browser.follow(await signIn(browser, new URL(toLogin.url), 'alice@example.com', PASSWORD), (url) => url.pathname === '/saml/continue');
    const page = await browser.get(atContinue.url);
    const html = await page.text();
    expect(page.status, html).to.equal(200);
    const action = /<form[^>]*action="([^"]*)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    expect(action).to.equal(`${sp}/mellon/postResponse`);
    const fields: Record<string, string> = {};
    for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!.replace(/&amp;/g, '&').replace(/&#39;|&apos;/g, "'").replace(/&quot;/g, '"');

    const posted = await browser.request('POST', action, { form: fields, from: atContinue.url });
    expect(posted.status, (await posted.clone().text()) + log()).to.be.within(300, 399);
    const protectedPage = await browser.follow(new URL(posted.headers.get('location')!, sp).toString(), undefined, atContinue.url);
    expect(protectedPage.url).to.equal(`${sp}/protected/`);
    expect(protectedPage.status, protectedPage.body + log()).to.equal(200);
    const seen = variables(protectedPage.body);
    expect(seen.MELLON_mail, protectedPage.body).to.equal('alice@example.com');
    expect(seen.MELLON_displayName, protectedPage.body).to.equal('Alice Martin');
    expect([seen.MELLON_groups_0, seen.MELLON_groups_1].sort(), protectedPage.body).to.deep.equal(['Editor', 'Reader']);
    expect(seen.MELLON_NAME_ID ?? seen.REMOTE_USER, protectedPage.body).to.equal('alice@example.com');
  });

  it('serves the page again from its own session, without going to the product', async () => {
    expect(browser.cookieNames(sp).some((name) => name.startsWith('mellon-')), `cookies: ${browser.cookieNames(sp).join(', ')}`).to.equal(true);
    const again = await browser.get(`${sp}/protected/`);
    expect(again.status).to.equal(200);
    expect(variables(await again.text()).MELLON_mail).to.equal('alice@example.com');
  });

  it('signs out through the product’s single logout, after which the page and the product ask to sign in again', async () => {
    const logout = await browser.follow(`${sp}/mellon/logout?ReturnTo=${encodeURIComponent(`${sp}/`)}`, undefined, `${sp}/protected/`);
    const slo = logout.hops.find((hop) => hop.url.startsWith(`${server.url}/saml/slo?`));
    expect(slo, `mellon did not send the browser to the product: ${JSON.stringify(logout.hops)}${log()}`).to.not.equal(undefined);
    expect(new URL(slo!.url).searchParams.get('Signature'), 'mellon signs its logout request').to.be.a('string');
    const answered = logout.hops.find((hop) => hop.url.startsWith(`${sp}/mellon/logout?SAMLResponse=`));
    expect(answered, `the product did not answer mellon: ${JSON.stringify(logout.hops)}`).to.not.equal(undefined);
    expect(logout.url, JSON.stringify(logout.hops) + log()).to.equal(`${sp}/`);
    expect(logout.body).to.contain('Signed out of the intranet');
    expect(apache.errorLog(), 'mellon took the signed LogoutResponse').to.not.contain('auth_mellon:error');

    const after = await browser.follow(`${sp}/protected/`, (url) => url.pathname === '/account/login' || url.pathname === '/saml/continue');
    expect(after.hops[0]!.status, 'mellon still serves the page after the sign-out').to.be.within(300, 399);
    expect(new URL(after.url).pathname, `the product's session outlived the sign-out: ${JSON.stringify(after.hops)}`).to.equal('/account/login');
  });
});
