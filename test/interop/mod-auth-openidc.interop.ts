// Apache httpd with Debian's mod_auth_openidc (2.4.12: no DPoP) as an independent relying party of
// the product: a business application that sends no DPoP proof signs its users in, shows their
// claims, keeps its own session, and signs out through the product's end-session endpoint. An
// application that requires DPoP gets no tokens from the same module.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { freePort, startTestServer, type TestServer } from '../support/server.js';
import { APACHE_BINARY, APACHE_MODULES, CookieBrowser, intranetPages, signIn, startApache, variables, type RunningApache } from './support.js';

const PASSWORD = 'Correct-Horse-42!';
const SECRET = 'apache-secret-0123456789-abcdefghijklmn';
const DPOP_SECRET = 'apache-dpop-secret-0123456789-abcdefghij';
const PASSPHRASE = 'interop-crypto-passphrase-0123456789';

const bootstrap = (rp: string, strict: string) => `
areas: [{ name: Default, default: true }]
tenants: [{ title: ACME, area: Default }, { title: Globex, area: Default }]
applications:
  - { id: '1', name: identity, displayName: Identity Management, type: public, roles: [{ name: God }, { name: Administrator }, { name: User }] }
  - id: apache-rp
    name: apache-rp
    displayName: Intranet behind Apache
    type: confidential
    secret: '${SECRET}'
    firstParty: true
    privateUrl: '${rp}/protected/'
    redirectUris: ['${rp}/protected/redirect_uri']
    postLogoutRedirectUris: ['${rp}/']
    roles: [{ name: Editor }, { name: Reader }]
  - id: apache-dpop
    name: apache-dpop
    displayName: Strict intranet behind Apache
    type: confidential
    secret: '${DPOP_SECRET}'
    firstParty: true
    requireDpop: true
    privateUrl: '${strict}/protected/'
    redirectUris: ['${strict}/protected/redirect_uri']
    roles: [{ name: Reader }]
users:
  - userName: alice@example.com
    firstName: Alice
    lastName: Martin
    area: Default
    language: en
    password: '${PASSWORD}'
    memberships:
      - { tenant: ACME, application: apache-rp, roles: [Editor] }
      - { tenant: Globex, application: apache-rp, roles: [Reader] }
      - { tenant: ACME, application: apache-dpop, roles: [Reader] }
`;

/** The page behind authentication: the OIDC_CLAIM_* variables mod_auth_openidc set, one per line. */
const CLAIMS_CGI = `#!/bin/sh
printf 'Content-Type: text/plain\\r\\n\\r\\n'
echo "REMOTE_USER=$REMOTE_USER"
env | grep '^OIDC_CLAIM_' | sort
`;

/** One virtual host: a relying party of the product on its own port, with its own client. */
const site = (root: string, port: number, product: string, clientId: string, secret: string) => `
<VirtualHost 127.0.0.1:${port}>
  ServerName 127.0.0.1:${port}
  DocumentRoot "${root}/htdocs"
  OIDCProviderMetadataURL ${product}/oidc/.well-known/openid-configuration
  OIDCClientID ${clientId}
  OIDCClientSecret ${secret}
  OIDCProviderTokenEndpointAuth client_secret_basic
  OIDCRedirectURI http://127.0.0.1:${port}/protected/redirect_uri
  OIDCCryptoPassphrase ${PASSPHRASE}
  OIDCScope "openid email profile roles"
  OIDCSSLValidateServer Off
  OIDCHTTPTimeoutLong 20
  OIDCHTTPTimeoutShort 10
  Alias /protected "${root}/protected"
  <Directory "${root}/htdocs">
    Require all granted
  </Directory>
  <Directory "${root}/protected">
    Options +ExecCGI
    AddHandler cgi-script .cgi
    DirectoryIndex claims.cgi
  </Directory>
  <Location /protected>
    AuthType openid-connect
    Require valid-user
  </Location>
</VirtualHost>
`;

describe('Interoperability: Apache httpd with mod_auth_openidc (no DPoP) as a relying party', function () {
  this.timeout(120_000);
  let server: TestServer;
  let apache: RunningApache;
  let rp: string;
  let strict: string;

  before(async () => {
    for (const file of [APACHE_BINARY, `${APACHE_MODULES}/mod_auth_openidc.so`]) {
      if (!existsSync(file)) throw new Error(`${file} is missing: apt-get install apache2 libapache2-mod-auth-openidc`);
    }
    const [rpPort, strictPort] = [await freePort(), await freePort()];
    rp = `http://127.0.0.1:${rpPort}`;
    strict = `http://127.0.0.1:${strictPort}`;
    server = await startTestServer({ bootstrap: bootstrap(rp, strict) });
    apache = await startApache(
      [rpPort, strictPort],
      (root) => site(root, rpPort, server.url, 'apache-rp', SECRET) + site(root, strictPort, server.url, 'apache-dpop', DPOP_SECRET),
      (root) => intranetPages(root, 'claims.cgi', CLAIMS_CGI),
    );
  });
  after(async () => {
    await apache?.stop();
    await server?.stop();
  });

  /** Apache's error log, for a failed assertion's message. */
  const log = () => `\n--- Apache error log ---\n${apache.errorLog().slice(-4000)}`;

  describe('an application that sends no DPoP proof', () => {
    const browser = new CookieBrowser();
    let sub: string;

    it('sends the browser to the product, and after the sign-in serves the page with the user’s email and roles', async () => {
      const start = await browser.get(`${rp}/protected/`);
      expect(start.status, log()).to.equal(302);
      const authorize = new URL(start.headers.get('location')!);
      expect(authorize.origin + authorize.pathname).to.equal(`${server.url}/oidc/auth`);
      expect(authorize.searchParams.get('client_id')).to.equal('apache-rp');
      expect(authorize.searchParams.get('redirect_uri')).to.equal(`${rp}/protected/redirect_uri`);
      expect(authorize.searchParams.get('nonce')).to.be.a('string');

      const toLogin = await browser.follow(authorize.toString(), (url) => url.pathname === '/account/login');
      const loginPage = new URL(toLogin.url);
      const resume = await signIn(browser, loginPage, 'alice@example.com', PASSWORD);

      const page = await browser.follow(resume);
      const callback = page.hops.find((hop) => hop.url.startsWith(`${rp}/protected/redirect_uri?`));
      expect(callback, `the product never sent the browser back to Apache: ${JSON.stringify(page.hops)}`).to.not.equal(undefined);
      expect(new URL(callback!.url).searchParams.get('code'), callback!.url).to.be.a('string');
      expect(page.url).to.equal(`${rp}/protected/`);
      expect(page.status, page.body + log()).to.equal(200);
      const claims = variables(page.body);
      expect(claims.OIDC_CLAIM_email, page.body).to.equal('alice@example.com');
      expect(claims.OIDC_CLAIM_roles?.split(',').sort(), page.body).to.deep.equal(['Editor', 'Reader']);
      expect(claims.OIDC_CLAIM_name, page.body).to.equal('Alice Martin');
      expect(claims.OIDC_CLAIM_sub, page.body).to.match(/^\S+$/);
      expect(claims.REMOTE_USER, page.body).to.equal(`${claims.OIDC_CLAIM_sub}@${server.url}/oidc`);
      sub = claims.OIDC_CLAIM_sub!;
    });

    it('serves the page again from its own session cookie, without going to the product', async () => {
      expect(browser.cookie(rp, 'mod_auth_openidc_session'), `cookies: ${browser.cookieNames(rp).join(', ')}`).to.be.a('string');
      const again = await browser.get(`${rp}/protected/`);
      expect(again.status).to.equal(200);
      const claims = variables(await again.text());
      expect(claims).to.include({ OIDC_CLAIM_email: 'alice@example.com', OIDC_CLAIM_sub: sub });
    });

    it('signs out through the product’s end-session endpoint, after which the product asks to sign in again', async () => {
      const logout = await browser.follow(`${rp}/protected/redirect_uri?logout=${encodeURIComponent(`${rp}/`)}`, undefined, `${rp}/protected/`);
      const endSession = logout.hops.find((hop) => hop.url.startsWith(`${server.url}/oidc/session/end`));
      expect(endSession, `Apache did not send the browser to the product: ${JSON.stringify(logout.hops)}${log()}`).to.not.equal(undefined);
      const request = new URL(endSession!.url);
      expect(request.searchParams.get('id_token_hint'), endSession!.url).to.be.a('string');
      expect(request.searchParams.get('post_logout_redirect_uri')).to.equal(`${rp}/`);

      // The product asks the user to confirm (the request came from another site): the form's button.
      expect(logout.url.startsWith(`${server.url}/oidc/session/end`), logout.url).to.equal(true);
      expect(logout.status, logout.body).to.equal(200);
      const form = /<form[^>]*id="op\.logoutForm"[^>]*>([\s\S]*?)<\/form>/.exec(logout.body);
      expect(form, logout.body).to.not.equal(null);
      const action = /action="([^"]+)"/.exec(form![0])![1]!;
      const fields = Object.fromEntries([...form![1]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
      const confirm = await browser.request('POST', new URL(action.replaceAll('&amp;', '&'), server.url).toString(), { form: { ...fields, logout: 'yes' }, from: logout.url });
      expect(confirm.status, await confirm.clone().text()).to.be.within(300, 399);
      const back = await browser.follow(new URL(confirm.headers.get('location')!, server.url).toString(), undefined, logout.url);
      expect(back.url).to.equal(`${rp}/`);
      expect(back.status).to.equal(200);
      expect(back.body).to.contain('Signed out of the intranet');

      const after = await browser.get(`${rp}/protected/`);
      expect(after.status, 'Apache still serves the page after the sign-out').to.equal(302);
      const authorize = new URL(after.headers.get('location')!);
      expect(authorize.origin + authorize.pathname).to.equal(`${server.url}/oidc/auth`);
      const provider = await browser.follow(authorize.toString(), (url) => url.pathname === '/account/login');
      expect(new URL(provider.url).pathname, `the product's session outlived the sign-out: ${JSON.stringify(provider.hops)}`).to.equal('/account/login');
    });
  });

  describe('an application that requires DPoP', () => {
    it('gets no tokens for the module’s requests without a proof: an error page instead of the claims, and no session', async () => {
      const browser = new CookieBrowser();
      const start = await browser.get(`${strict}/protected/`);
      expect(start.status, log()).to.equal(302);
      const authorize = new URL(start.headers.get('location')!);
      expect(authorize.origin + authorize.pathname).to.equal(`${server.url}/oidc/auth`);
      expect(authorize.searchParams.get('client_id')).to.equal('apache-dpop');
      const toLogin = await browser.follow(authorize.toString(), (url) => url.pathname === '/account/login');
      const page = await browser.follow(await signIn(browser, new URL(toLogin.url), 'alice@example.com', PASSWORD));

      // The product issued a code and sent the browser back; the module's token request is refused.
      expect(page.url, JSON.stringify(page.hops)).to.match(new RegExp(`^${strict}/protected/redirect_uri\\?code=`));
      // mod_auth_openidc 2.4.12 answers its own error page, with status 200 (not a 4xx/5xx).
      expect(page.body, page.body).to.match(/<title>Error<\/title>/);
      expect(page.body).to.contain('OpenID Connect Provider error');
      expect(page.body).not.to.contain('OIDC_CLAIM_');
      expect(page.body).not.to.contain('alice@example.com');
      expect(apache.errorLog(), 'Apache logs the token endpoint’s refusal').to.contain('"error" entry with value: ""invalid_grant""');
      expect(apache.errorLog()).to.contain('failed to resolve the code');
      expect(browser.cookie(strict, 'mod_auth_openidc_session'), 'no session in Apache').to.equal(undefined);
      const again = await browser.get(`${strict}/protected/`);
      expect(again.status, 'the page is still not served').to.equal(302);
      expect(new URL(again.headers.get('location')!).pathname).to.equal('/oidc/auth');
    });
  });
});
