import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfidentialClientApplication } from '@azure/msal-node';
import { ConfigError, createLogger, loadConfig, type Config } from '@gatehouse/core';
import { expect } from 'chai';
import { FetchNetworkClient, MicrosoftError, identityFromClaims, msalConfiguration, msalCredential } from './microsoft-client.js';

const TENANT = randomUUID();
const CLIENT = randomUUID();
const ISSUER = `https://login.microsoftonline.com/${TENANT}/v2.0`;
const METADATA = JSON.stringify({
  issuer: ISSUER,
  authorization_endpoint: `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/authorize`,
  token_endpoint: `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/token`,
  jwks_uri: `https://login.microsoftonline.com/${TENANT}/discovery/v2.0/keys`,
});

function configWith(env: Record<string, string>): Config {
  return loadConfig({ env: { ENTRA_TENANT_ID: TENANT, ENTRA_CLIENT_ID: CLIENT, ...env }, configDir: mkdtempSync(path.join(tmpdir(), 'gh-ms-')) });
}

function keyFile(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gh-ms-key-')), 'key.pem');
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return file;
}

describe('Microsoft client (msal-node configuration and ID token checks)', () => {
  const logger = createLogger('silent');

  describe('msalCredential', () => {
    it('uses the client secret when one is configured', () => {
      expect(msalCredential(configWith({ ENTRA_CLIENT_SECRET: 's3cret' }))).to.deep.equal({ clientSecret: 's3cret' });
    });

    it('passes a SHA-1 thumbprint as such and a SHA-256 one under its own name, with the PEM key', () => {
      const file = keyFile();
      const sha1 = msalCredential(configWith({ ENTRA_CERT_THUMBPRINT: 'AB'.repeat(20), ENTRA_CERT_KEY_FILE: file }));
      expect(sha1.clientCertificate).to.include({ thumbprint: 'ab'.repeat(20) });
      expect(sha1.clientCertificate!.privateKey).to.match(/^-----BEGIN PRIVATE KEY-----/);
      const sha256 = msalCredential(configWith({ ENTRA_CERT_THUMBPRINT: 'cd'.repeat(32), ENTRA_CERT_KEY_FILE: file }));
      expect(sha256.clientCertificate).to.include({ thumbprintSha256: 'cd'.repeat(32) });
    });

    it('stops the start-up, naming the key, when the certificate key cannot be read', () => {
      const config = configWith({ ENTRA_CERT_THUMBPRINT: 'ab'.repeat(20), ENTRA_CERT_KEY_FILE: '/nonexistent/key.pem' });
      expect(() => msalCredential(config)).to.throw(ConfigError).with.property('problems').that.satisfies((p: string[]) => p[0]!.startsWith('microsoft.certificateKeyFile'));
    });
  });

  describe('msalConfiguration', () => {
    const network = new FetchNetworkClient(AbortSignal.timeout(1000));

    it('keeps an Entra authority as it is and gives msal-node its metadata and our network client', () => {
      const config = configWith({ ENTRA_CLIENT_SECRET: 's3cret' });
      const result = msalConfiguration({ settings: config.microsoft, credential: msalCredential(config), metadata: METADATA, network, logger });
      expect(result.auth).to.include({ clientId: CLIENT, authority: `https://login.microsoftonline.com/${TENANT}`, authorityMetadata: METADATA });
      expect(result.auth.knownAuthorities).to.deep.equal(['login.microsoftonline.com']);
      expect(result.system!.networkClient).to.equal(network);
      // msal-node validates the authority and the credential in its constructor.
      expect(() => new ConfidentialClientApplication(result)).not.to.throw();
    });

    it('builds the Entra authorization URL from the metadata alone, without a network call', async () => {
      const config = configWith({ ENTRA_CLIENT_SECRET: 's3cret' });
      const offline = new FetchNetworkClient(AbortSignal.abort());
      const msal = new ConfidentialClientApplication(
        msalConfiguration({ settings: config.microsoft, credential: msalCredential(config), metadata: METADATA, network: offline, logger }),
      );
      const url = new URL(
        await msal.getAuthCodeUrl({ scopes: ['email'], redirectUri: 'https://id.example.com/cb', state: 's', nonce: 'n', codeChallenge: 'c', codeChallengeMethod: 'S256' }),
      );
      expect(`${url.origin}${url.pathname}`).to.equal(`https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/authorize`);
      expect(url.searchParams.get('client_id')).to.equal(CLIENT);
      expect(offline.failure).to.equal(undefined);
    });

    it('gives msal-node the https spelling of a loopback test authority, which it never calls', () => {
      const config = configWith({ ENTRA_CLIENT_SECRET: 's3cret', ENTRA_AUTHORITY: `http://127.0.0.1:4321/${TENANT}` });
      const result = msalConfiguration({ settings: config.microsoft, credential: msalCredential(config), metadata: METADATA, network, logger });
      expect(result.auth.authority).to.equal(`https://127.0.0.1:4321/${TENANT}`);
      expect(result.auth.knownAuthorities).to.deep.equal(['127.0.0.1:4321']);
    });

    it('accepts a certificate credential', () => {
      const config = configWith({ ENTRA_CERT_THUMBPRINT: 'ab'.repeat(32), ENTRA_CERT_KEY_FILE: keyFile() });
      const result = msalConfiguration({ settings: config.microsoft, credential: msalCredential(config), metadata: METADATA, network, logger });
      expect(() => new ConfidentialClientApplication(result)).not.to.throw();
    });
  });

  describe('identityFromClaims', () => {
    const nonce = 'n-0S6_WzA2Mj';
    const expected = { issuer: ISSUER, clientId: CLIENT, nonce, tenantId: TENANT };
    const claims = (extra: Record<string, unknown> = {}) => ({
      iss: ISSUER,
      aud: CLIENT,
      exp: Math.floor(Date.now() / 1000) + 3600,
      nonce,
      tid: TENANT,
      oid: randomUUID(),
      preferred_username: 'Ana.Lima@Group.example',
      email: 'Ana.Lima@Group.example',
      given_name: 'Ana',
      family_name: 'Lima',
      ...extra,
    });

    it('reads the tenant, object id, lower-cased e-mail and names, vouched for by the tenant', () => {
      const c = claims();
      expect(identityFromClaims(c, expected)).to.deep.equal({
        tid: TENANT,
        oid: c.oid,
        email: 'ana.lima@group.example',
        emailVerifiedByTenant: true,
        firstName: 'Ana',
        lastName: 'Lima',
      });
    });

    it('falls back to the display name for the names', () => {
      const identity = identityFromClaims(claims({ email: undefined, given_name: undefined, family_name: undefined, preferred_username: 'ana@group.example', name: 'Ana Maria Lima' }), expected);
      expect(identity).to.include({ email: 'ana@group.example', firstName: 'Ana', lastName: 'Maria Lima' });
    });

    it('takes the name from preferred_username (the UPN), never from the email claim a directory administrator may set', () => {
      expect(identityFromClaims(claims({ preferred_username: 'ana@group.example', email: 'cfo@group.example' }), expected).email).to.equal('ana@group.example');
      expect(identityFromClaims(claims({ preferred_username: undefined, email: 'cfo@group.example' }), expected).email).to.equal(null);
      expect(identityFromClaims(claims({ preferred_username: 'not an address', email: 'cfo@group.example' }), expected).email).to.equal(null);
    });

    it('does not let the tenant vouch for a guest, nor for another tenant', () => {
      expect(identityFromClaims(claims({ idp: 'https://sts.windows.net/other/' }), expected).emailVerifiedByTenant).to.equal(false);
      const other = randomUUID();
      const multi = { ...expected, issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0' };
      const identity = identityFromClaims(claims({ tid: other, iss: `https://login.microsoftonline.com/${other}/v2.0` }), multi);
      expect(identity.emailVerifiedByTenant).to.equal(false);
    });

    it('refuses a token of another issuer or audience, an expired one, or one without the nonce', () => {
      for (const bad of [{ iss: 'https://evil.example/v2.0' }, { aud: randomUUID() }, { exp: 1 }, { nonce: 'other' }, { oid: undefined }]) {
        expect(() => identityFromClaims(claims(bad), expected), JSON.stringify(bad)).to.throw(MicrosoftError).with.property('kind', 'invalid');
      }
    });
  });

  describe('FetchNetworkClient', () => {
    let server: http.Server;
    let url: string;
    before(async () => {
      server = http.createServer((req, res) => {
        if (req.url === '/hang') return;
        res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => {
      server.closeAllConnections();
      server.close();
    });

    it('gives up at the deadline and keeps the cause', async () => {
      const client = new FetchNetworkClient(AbortSignal.timeout(200));
      const started = Date.now();
      const error = await client.sendPostRequestAsync(`${url}/hang`, { body: 'x' }).catch((e: Error) => e);
      expect(error).to.be.an.instanceOf(Error);
      expect(Date.now() - started).to.be.below(2000);
      expect(client.failure?.name).to.equal('TimeoutError');
    });

    it('turns a body that is not JSON into an OAuth error msal-node can report', async () => {
      const response = await new FetchNetworkClient(AbortSignal.timeout(1000)).sendGetRequestAsync<Record<string, string>>(`${url}/x`);
      expect(response.status).to.equal(502);
      expect(response.body.error).to.equal('server_error');
    });
  });
});
