import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { buildAdminWorld, call, logsWhere, type AdminWorld } from '../../testing/admin-world.js';
import { EC_CERTIFICATE_PEM, SP_CERTIFICATE_PEM, buildSamlApplication, spMetadata } from './saml-testing.js';

const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** The General properties of a new SAML application named `name`. */
function newSamlApp(name = unique('sp'), saml?: Record<string, unknown>) {
  return { name, displayName: `SP ${name}`, privateUrl: `https://${name}.example.com/`, protocol: 'saml', ...(saml ? { saml } : {}) };
}

/** SAML settings with a fresh entity id; `overrides` change or add fields. */
function settings(overrides: Record<string, unknown> = {}) {
  const host = `${unique('sp')}.example.com`;
  return { entityId: `https://${host}/saml/metadata`, assertionConsumerServices: [{ url: `https://${host}/saml/acs` }], ...overrides };
}

/** The messages of the field errors of an answer, by field. */
function fieldMessages(body: { errors?: Array<{ field: string; message: string }> }): Record<string, string> {
  return Object.fromEntries((body.errors ?? []).map((error) => [error.field, error.message]));
}

/** A web server on loopback answering `body` at every path (status 200 unless told); answers its address. */
async function serve(body: string, status = 200): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/samlmetadata+xml' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/saml/metadata`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('applications admin API: SAML applications', function () {
  this.timeout(120_000);
  let w: AdminWorld;

  before(async () => {
    w = await buildAdminWorld();
  });

  describe('POST /applications with protocol saml', () => {
    it('creates a SAML application with its settings, without redirect URIs or a secret', async () => {
      const attributes = [
        { source: 'email', name: 'mail' },
        { source: 'roles', name: 'groups' },
      ];
      const saml = settings({
        singleLogoutUrl: 'https://wiki.example.com/saml/slo',
        nameIdFormat: 'persistent',
        attributes,
        certificate: SP_CERTIFICATE_PEM,
        wantAuthnRequestsSigned: true,
      });
      const created = await call(w, 'post', '/applications', { body: newSamlApp(undefined, saml) });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.include({ protocol: 'saml', type: 'public', sharedSecret: null, hasSecret: false });
      expect(created.body.redirectUris).to.deep.equal([]);

      const read = await call(w, 'get', `/applications/${created.body.id}/saml`);
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body.settings).to.deep.equal({
        entityId: saml.entityId,
        assertionConsumerServices: [{ url: saml.assertionConsumerServices[0]!.url, binding: POST }],
        singleLogoutUrl: 'https://wiki.example.com/saml/slo',
        nameIdFormat: 'persistent',
        attributes,
        certificate: SP_CERTIFICATE_PEM,
        wantAuthnRequestsSigned: true,
        encryptAssertions: false,
        defaultRelayState: null,
      });
      expect(read.body.idpEntityId).to.match(/\/saml$/);
      expect(read.body.idpMetadataUrl).to.equal(`${read.body.idpEntityId}/metadata`);

      const [log] = (await logsWhere(w, 'applicationId', created.body.id)).filter((row) => row.operation === 'CreateApplication');
      expect(log!.metadata).to.include({ protocol: 'saml', entityId: saml.entityId, type: 'public' });
    });

    it('creates a SAML application whose settings come later, shown as none yet', async () => {
      const created = await call(w, 'post', '/applications', { body: newSamlApp() });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const read = await call(w, 'get', `/applications/${created.body.id}/saml`);
      expect(read.body.settings).to.equal(null);
    });

    it('still wants a redirect URI of an OpenID Connect application, and SAML settings only with protocol saml', async () => {
      const oidc = await call(w, 'post', '/applications', { body: { name: unique('oidc'), displayName: 'OIDC', privateUrl: 'https://oidc.example.com/', saml: settings() } });
      expect(oidc.status).to.equal(400);
      expect(fieldMessages(oidc.body)).to.deep.equal({
        redirectUris: 'Please input the application redirect URIs!',
        saml: 'SAML settings are for a SAML 2.0 application (protocol saml)',
      });
    });

    it('creates a SAML application without a private URL (the portal opens it through the identity provider), which an OpenID Connect one must have', async () => {
      const { privateUrl: _left, ...withoutUrl } = newSamlApp();
      const saml = await call(w, 'post', '/applications', { body: withoutUrl });
      expect(saml.status, JSON.stringify(saml.body)).to.equal(201);
      expect(saml.body.privateUrl).to.equal(null);
      // Sent empty, it is none too; sent, it is still checked.
      expect((await call(w, 'post', '/applications', { body: { ...newSamlApp(), privateUrl: ' ' } })).body.privateUrl).to.equal(null);
      expect(fieldMessages((await call(w, 'post', '/applications', { body: { ...newSamlApp(), privateUrl: 'not a url' } })).body)).to.have.property('privateUrl');

      const oidc = await call(w, 'post', '/applications', { body: { name: unique('oidc'), displayName: 'OIDC', redirectUris: ['https://oidc.example.com/cb'] }, lang: 'fr' });
      expect(oidc.status).to.equal(400);
      expect(oidc.body.errors).to.deep.include({ field: 'privateUrl', code: 'applications.private_url_required', message: fieldMessages(oidc.body).privateUrl });
      const english = await call(w, 'post', '/applications', { body: { name: unique('oidc'), displayName: 'OIDC', privateUrl: '', redirectUris: ['https://oidc.example.com/cb'] } });
      expect(fieldMessages(english.body)).to.deep.equal({ privateUrl: 'Please input the application private URL!' });
    });

    it('refuses settings the bootstrap file would refuse, each on its field, with the application’s own errors', async () => {
      const refused = await call(w, 'post', '/applications', {
        body: {
          ...newSamlApp(unique('sp'), {
            entityId: 'http://sp.example.com/metadata',
            assertionConsumerServices: [{ url: 'https://sp.example.com/acs#part' }, { url: 'http://127.0.0.1:8080/acs' }, { url: 'http://127.0.0.1:8080/acs' }],
            singleLogoutUrl: 'ftp://sp.example.com/slo',
            attributes: [
              { source: 'email', name: 'mail' },
              { source: 'firstName', name: 'mail' },
            ],
            certificate: 'not a certificate',
          }),
          privateUrl: 'javascript:alert(1)',
        },
      });
      expect(refused.status).to.equal(400);
      expect(fieldMessages(refused.body)).to.deep.equal({
        privateUrl: 'Enter an absolute address starting with https:// (http:// only on localhost)',
        'saml.entityId': 'Enter an absolute address starting with https:// (http:// only on localhost), or a URN (urn:…)',
        'saml.assertionConsumerServices.0.url': 'Enter an absolute address starting with https:// (http:// only on localhost), without credentials or #',
        'saml.assertionConsumerServices.2.url': 'This address is already in the list',
        'saml.singleLogoutUrl': 'Enter an absolute address starting with https:// (http:// only on localhost), without credentials or #',
        'saml.attributes.1.name': 'This attribute name is already mapped',
        'saml.certificate': 'Paste an X.509 certificate in PEM (-----BEGIN CERTIFICATE-----)',
      });
    });

    it('answers 409 naming the application that already has the entity id, in the caller’s language', async () => {
      const saml = settings();
      const first = await call(w, 'post', '/applications', { body: newSamlApp('first-sp-' + randomBytes(3).toString('hex'), saml) });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      const second = await call(w, 'post', '/applications', { body: newSamlApp(undefined, saml) });
      expect(second.status).to.equal(409);
      expect(second.body.message).to.equal(`The application ${first.body.displayName} already has this entity id`);
      expect(second.body.errors[0]).to.include({ field: 'saml.entityId', code: 'samlApplications.entity_id_in_use' });
      const french = await call(w, 'post', '/applications', { body: newSamlApp(undefined, saml), lang: 'fr' });
      expect(french.body.message).to.equal(`L'application ${first.body.displayName} a déjà cet identifiant d'entité`);
      // Nothing of the refused one was stored.
      const [{ count }] = await w.context.dataSource.query(`SELECT count(*)::int AS count FROM application_saml_settings WHERE entity_id = $1`, [saml.entityId]);
      expect(count).to.equal(1);
    });

    it('keeps an entity id unique when two applications are created with it at the same time: one 201, one 409, one row', async () => {
      const saml = settings();
      const bodies = [newSamlApp(undefined, saml), newSamlApp(undefined, saml)];
      const answers = await Promise.all(bodies.map((body) => call(w, 'post', '/applications', { body })));
      expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers.map((answer) => answer.body))).to.deep.equal([201, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.errors[0]).to.include({ field: 'saml.entityId', code: 'samlApplications.entity_id_in_use' });
      const [{ count }] = await w.context.dataSource.query(`SELECT count(*)::int AS count FROM application_saml_settings WHERE entity_id = $1`, [saml.entityId]);
      expect(count).to.equal(1);
      // The refused application was not kept without its settings either.
      const [{ apps }] = await w.context.dataSource.query(`SELECT count(*)::int AS apps FROM applications WHERE name = ANY($1)`, [bodies.map((body) => body.name)]);
      expect(apps).to.equal(1);
    });
  });

  describe('PUT /applications/{id}/saml', () => {
    it('changes the settings, logs what changed (the certificate named, never copied) and answers them', async () => {
      const app = await buildSamlApplication(w.context.dataSource);
      const saml = settings({ entityId: `urn:example:${unique('wiki')}`, certificate: SP_CERTIFICATE_PEM, encryptAssertions: true, defaultRelayState: '/home' });
      const res = await call(w, 'put', `/applications/${app.id}/saml`, { body: saml });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.settings).to.include({ entityId: saml.entityId, encryptAssertions: true, defaultRelayState: '/home', nameIdFormat: 'email' });
      const [log] = (await logsWhere(w, 'applicationId', app.id)).filter((row) => row.operation === 'UpdateApplicationSaml');
      expect(log!.metadata.changes).to.deep.include({ entityId: { from: app.entityId, to: saml.entityId }, certificate: 'replaced' });
      expect(JSON.stringify(log!.metadata)).to.not.include('BEGIN CERTIFICATE');
    });

    it('keeps an entity id unique: 409 when another application has it, its own is fine', async () => {
      const taken = await buildSamlApplication(w.context.dataSource);
      const app = await buildSamlApplication(w.context.dataSource);
      const clash = await call(w, 'put', `/applications/${app.id}/saml`, { body: settings({ entityId: taken.entityId }) });
      expect(clash.status).to.equal(409);
      expect(clash.body.message).to.equal(`The application SAML ${taken.id} already has this entity id`);
      expect(clash.body.errors[0]).to.include({ field: 'entityId' });
      const same = await call(w, 'put', `/applications/${app.id}/saml`, { body: settings({ entityId: app.entityId }) });
      expect(same.status, JSON.stringify(same.body)).to.equal(200);
    });

    it('answers the SAML messages for missing fields and certificate rules', async () => {
      const app = await buildSamlApplication(w.context.dataSource);
      const missing = await call(w, 'put', `/applications/${app.id}/saml`, { body: { entityId: ' ', assertionConsumerServices: [] } });
      expect(missing.status).to.equal(400);
      expect(fieldMessages(missing.body)).to.deep.equal({
        entityId: "Please input the service provider's entity id!",
        assertionConsumerServices: 'Please input at least one assertion consumer service address!',
      });
      const unsigned = await call(w, 'put', `/applications/${app.id}/saml`, { body: settings({ wantAuthnRequestsSigned: true }) });
      expect(fieldMessages(unsigned.body)).to.deep.equal({ certificate: "Signed requests are checked with the service provider's certificate: paste it" });
      const ec = await call(w, 'put', `/applications/${app.id}/saml`, { body: settings({ certificate: EC_CERTIFICATE_PEM, encryptAssertions: true }) });
      expect(fieldMessages(ec.body)).to.deep.equal({ certificate: 'Assertions are encrypted with RSA-OAEP: the certificate must carry an RSA key' });
      const german = await call(w, 'put', `/applications/${app.id}/saml`, { body: settings({ entityId: 'not an id' }), lang: 'de' });
      expect(fieldMessages(german.body).entityId).to.equal('Geben Sie eine absolute Adresse mit https:// (http:// nur auf localhost) oder eine URN (urn:…) ein');
    });

    it('refuses an OpenID Connect application and the product’s own, and a caller without the right', async () => {
      const oidc = await call(w, 'post', '/applications', {
        body: { name: unique('oidc'), displayName: 'OIDC', privateUrl: 'https://oidc.example.com/', redirectUris: ['https://oidc.example.com/cb'] },
      });
      const notSaml = await call(w, 'put', `/applications/${oidc.body.id}/saml`, { body: settings() });
      expect(notSaml.status).to.equal(409);
      expect(notSaml.body.message).to.equal('This application signs in with OpenID Connect, not SAML 2.0');
      expect((await call(w, 'get', `/applications/${oidc.body.id}/saml`)).status).to.equal(409);
      const identity = await call(w, 'put', `/applications/${w.identity.id}/saml`, { body: settings() });
      expect(identity.status).to.equal(409);
      expect(identity.body.code).to.equal('samlApplications.product_own');
      expect((await call(w, 'put', '/applications/no-such-app/saml', { body: settings() })).status).to.equal(404);

      const app = await buildSamlApplication(w.context.dataSource);
      const tenantAdmin = await call(w, 'put', `/applications/${app.id}/saml`, { body: settings(), as: 'tenantAdmin' });
      expect(tenantAdmin.status).to.equal(403);
      expect((await call(w, 'get', `/applications/${app.id}/saml`, { as: 'tenantAdmin' })).status).to.equal(200);
      expect((await call(w, 'post', '/applications/samlMetadata', { body: { xml: spMetadata() }, as: 'manager' })).status).to.equal(403);
    });

    it('keeps the General properties of a SAML application editable without redirect URIs', async () => {
      const app = await buildSamlApplication(w.context.dataSource);
      const res = await call(w, 'put', `/applications/${app.id}`, {
        body: { displayName: 'Renamed SP', type: 'confidential', privateUrl: 'https://sp.example.com/', redirectUris: [] },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // No secret: the identity provider's client for it has its own.
      expect(res.body).to.include({ displayName: 'Renamed SP', protocol: 'saml', type: 'public', sharedSecret: null });
      // Its private URL may be taken away; an OpenID Connect application's may not.
      const cleared = await call(w, 'put', `/applications/${app.id}`, { body: { displayName: 'Renamed SP', type: 'public', privateUrl: null, redirectUris: [] } });
      expect(cleared.status, JSON.stringify(cleared.body)).to.equal(200);
      expect(cleared.body.privateUrl).to.equal(null);
      const oidc = await call(w, 'post', '/applications', { body: { name: unique('oidc'), displayName: 'OIDC', type: 'public', privateUrl: 'https://oidc.example.com/', redirectUris: ['https://oidc.example.com/cb'] } });
      expect(oidc.status, JSON.stringify(oidc.body)).to.equal(201);
      const refused = await call(w, 'put', `/applications/${oidc.body.id}`, { body: { displayName: 'OIDC', type: 'public', privateUrl: null, redirectUris: ['https://oidc.example.com/cb'] } });
      expect(refused.status).to.equal(400);
      expect(fieldMessages(refused.body)).to.deep.equal({ privateUrl: 'Please input the application private URL!' });
      expect((await call(w, 'get', `/applications/${oidc.body.id}`)).body.privateUrl).to.equal('https://oidc.example.com/');
    });
  });

  describe('POST /applications/samlMetadata', () => {
    it('reads an uploaded service provider’s metadata: entity id, POST ACS (default first), SLO, signing certificate, signed requests, NameID', async () => {
      const entityId = 'https://wiki.example.com/saml/metadata';
      const res = await call(w, 'post', '/applications/samlMetadata', { body: { xml: spMetadata({ entityId }) } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({
        entityId,
        assertionConsumerServices: [
          { url: 'https://wiki.example.com/saml/acs', binding: POST },
          { url: 'https://wiki.example.com/saml/acs-other', binding: POST },
        ],
        singleLogoutUrl: 'https://wiki.example.com/saml/slo',
        certificate: SP_CERTIFICATE_PEM,
        wantAuthnRequestsSigned: true,
        nameIdFormat: 'persistent',
      });
      // What it read is what the settings take.
      const app = await buildSamlApplication(w.context.dataSource);
      const saved = await call(w, 'put', `/applications/${app.id}/saml`, { body: { ...res.body, entityId: `urn:example:${unique('read')}` } });
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    });

    it('refuses a document type declaration or entity before parsing, and what is not an SP’s metadata', async () => {
      const dtd = await call(w, 'post', '/applications/samlMetadata', { body: { xml: spMetadata({ prolog: '<!DOCTYPE md [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n' }) } });
      expect(dtd.status).to.equal(400);
      expect(fieldMessages(dtd.body)).to.deep.equal({ xml: 'Metadata with a document type declaration (DTD) or entities is not accepted' });
      const broken = await call(w, 'post', '/applications/samlMetadata', { body: { xml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">' } });
      expect(broken.status).to.equal(422);
      expect(broken.body.message).to.equal('The metadata is not well-formed XML');
      const idp = await call(w, 'post', '/applications/samlMetadata', {
        body: { xml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>' },
      });
      expect(idp.body.message).to.equal('The metadata describes no service provider (SPSSODescriptor)');
      const both = await call(w, 'post', '/applications/samlMetadata', { body: { xml: spMetadata(), url: 'https://sp.example.com/metadata' } });
      expect(both.status).to.equal(400);
      expect(both.body.message).to.equal('Upload the metadata file or give its address, one of the two');
    });

    it('does not fetch a loopback address where private networks are not allowed', async () => {
      const sp = await serve(spMetadata());
      try {
        const res = await call(w, 'post', '/applications/samlMetadata', { body: { url: sp.url } });
        expect(res.status).to.equal(400);
        expect(fieldMessages(res.body)).to.deep.equal({
          url: 'This address is on a private or loopback network: it is not fetched unless the deployment allows private networks',
        });
        const plainHttp = await call(w, 'post', '/applications/samlMetadata', { body: { url: 'http://sp.example.com/metadata' } });
        expect(fieldMessages(plainHttp.body)).to.deep.equal({ url: 'Enter an absolute address starting with https:// (http:// only on localhost), without credentials or #' });
      } finally {
        await sp.close();
      }
    });

    describe('where the deployment allows private networks', () => {
      let open: AdminWorld;
      before(async () => {
        open = await buildAdminWorld({ overrides: { 'oidc.allowPrivateNetworkRequests': true } });
      });

      it('downloads the metadata from the address and reads it', async () => {
        const entityId = 'https://crm.example.com/saml';
        const sp = await serve(spMetadata({ entityId, signed: false }));
        try {
          const res = await call(open, 'post', '/applications/samlMetadata', { body: { url: sp.url } });
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          expect(res.body).to.include({ entityId, wantAuthnRequestsSigned: false });
          expect(res.body.assertionConsumerServices[0]).to.deep.equal({ url: 'https://crm.example.com/saml/acs', binding: POST });
        } finally {
          await sp.close();
        }
      });

      it('says so when the address answers an error, or a document type declaration', async () => {
        const missing = await serve('not here', 404);
        const dtd = await serve(spMetadata({ prolog: '<!DOCTYPE lol [<!ENTITY lol "lol">]>' }));
        try {
          const notFound = await call(open, 'post', '/applications/samlMetadata', { body: { url: missing.url } });
          expect(notFound.status).to.equal(422);
          expect(notFound.body.message).to.equal('The address answered HTTP 404 instead of the metadata');
          const refused = await call(open, 'post', '/applications/samlMetadata', { body: { url: dtd.url } });
          expect(refused.status).to.equal(400);
          expect(fieldMessages(refused.body)).to.deep.equal({ url: 'Metadata with a document type declaration (DTD) or entities is not accepted' });
        } finally {
          await Promise.all([missing.close(), dtd.close()]);
        }
      });
    });
  });
});
