import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { buildAdminWorld, call, logsWhere, type AdminWorld } from '../../testing/admin-world.js';

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A valid body of `POST /applications` for `name`; `overrides` change or add fields. */
function newApp(name = unique('app'), overrides: Record<string, unknown> = {}) {
  return {
    name,
    displayName: `Display ${name}`,
    type: 'confidential',
    privateUrl: 'https://app.example.com/',
    redirectUris: ['https://app.example.com/callback'],
    ...overrides,
  };
}

/** The public and the private JWK of a new key pair. */
function jwkPair(type: 'ec' | 'rsa' = 'ec', modulusLength = 2048) {
  const { publicKey, privateKey } =
    type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength });
  return { publicJwk: { ...publicKey.export({ format: 'jwk' }), kid: 'k1' }, privateJwk: privateKey.export({ format: 'jwk' }) };
}

/** The messages of the field errors of an answer, by field. */
function fieldMessages(body: { errors?: Array<{ field: string; message: string }> }): Record<string, string> {
  return Object.fromEntries((body.errors ?? []).map((error) => [error.field, error.message]));
}

describe('applications admin API: PAR, JAR, private_key_jwt, FAPI 2.0 and token exchange settings', function () {
  this.timeout(120_000);
  let w: AdminWorld;

  before(async () => {
    w = await buildAdminWorld();
    await w.context.dataSource.query(
      `INSERT INTO applications (id, name, display_name, client_type, redirect_uris) VALUES ('admin-console', 'admin-console', 'Console', 'public', '{https://product.example.com/cb}') ON CONFLICT DO NOTHING`,
    );
  });

  const create = (body: Record<string, unknown>) => call(w, 'post', '/applications', { body });
  const update = (id: string, body: Record<string, unknown>) => call(w, 'put', `/applications/${id}`, { body });
  /** The General properties of a stored application, as the console sends them back. */
  const formOf = (detail: Record<string, unknown>) => ({
    displayName: detail.displayName,
    type: detail.type,
    privateUrl: detail.privateUrl,
    redirectUris: detail.redirectUris,
  });

  it('stores and answers the settings; a new application has none of them', async () => {
    const plain = await create(newApp());
    expect(plain.status, JSON.stringify(plain.body)).to.equal(201);
    expect(plain.body).to.include({ requirePar: false, requireSignedRequestObject: false, clientAuthentication: 'client_secret_basic', fapi2: false, jwks: null, jwksUri: null });
    expect(plain.body.tokenExchangeAudiences).to.deep.equal([]);
    const { publicJwk } = jwkPair();
    const hardened = await create(
      newApp(unique('hard'), { requirePar: true, requireSignedRequestObject: true, clientAuthentication: 'private_key_jwt', jwks: { keys: [publicJwk] }, tokenExchangeAudiences: [plain.body.id] }),
    );
    expect(hardened.status, JSON.stringify(hardened.body)).to.equal(201);
    expect(hardened.body).to.include({ requirePar: true, requireSignedRequestObject: true, clientAuthentication: 'private_key_jwt' });
    expect(hardened.body.jwks).to.deep.equal({ keys: [publicJwk] });
    expect(hardened.body.tokenExchangeAudiences).to.deep.equal([plain.body.id]);
  });

  it('turns on pushed requests and DPoP with the FAPI 2.0 profile, and logs the change', async () => {
    const { publicJwk } = jwkPair('rsa');
    const created = await create(newApp(unique('fapi'), { clientAuthentication: 'private_key_jwt', jwks: { keys: [publicJwk] } }));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const changed = await update(created.body.id, { ...formOf(created.body), fapi2: true });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.include({ fapi2: true, requirePar: true, requireDpop: true });
    const [log] = await logsWhere(w, 'applicationId', created.body.id).then((rows) => rows.filter((row) => row.operation === 'UpdateApplication'));
    expect(log!.metadata.changes).to.deep.include({ fapi2: { from: false, to: true }, requirePar: { from: false, to: true }, requireDpop: { from: false, to: true } });
  });

  it('refuses FAPI 2.0 for an application that authenticates with its secret, or a public one', async () => {
    const secret = await create(newApp(unique('fapi'), { fapi2: true }));
    expect(secret.status).to.equal(400);
    expect(fieldMessages(secret.body).fapi2).to.equal('The FAPI 2.0 profile needs a confidential application that authenticates with private_key_jwt');
    const publicApp = await create(newApp(unique('fapi'), { type: 'public', fapi2: true, clientAuthentication: 'private_key_jwt', jwks: { keys: [jwkPair().publicJwk] } }));
    expect(publicApp.status).to.equal(400);
    expect(Object.keys(fieldMessages(publicApp.body))).to.include.members(['fapi2', 'clientAuthentication']);
  });

  it('refuses private_key_jwt without keys, keys given twice, a private key, a weak or unusable key, and a bad address', async () => {
    const none = await create(newApp(unique('pkj'), { clientAuthentication: 'private_key_jwt' }));
    expect(none.status).to.equal(400);
    expect(fieldMessages(none.body).jwks).to.match(/need the application's public keys/);
    const { publicJwk, privateJwk } = jwkPair();
    const twice = await create(newApp(unique('pkj'), { clientAuthentication: 'private_key_jwt', jwks: { keys: [publicJwk] }, jwksUri: 'https://keys.example.com/jwks' }));
    expect(fieldMessages(twice.body).jwksUri).to.equal('Give the public keys either by value or by address, not both');
    const leaked = await create(newApp(unique('pkj'), { clientAuthentication: 'private_key_jwt', jwks: { keys: [publicJwk, privateJwk] } }));
    expect(leaked.status).to.equal(400);
    expect(fieldMessages(leaked.body)['jwks.keys.1']).to.equal('Key 2 holds a private part: paste only the public keys');
    const weak = await create(newApp(unique('pkj'), { clientAuthentication: 'private_key_jwt', jwks: { keys: [jwkPair('rsa', 1024).publicJwk] } }));
    expect(fieldMessages(weak.body)['jwks.keys.0']).to.match(/^Key 1 cannot be used/);
    const garbage = await create(newApp(unique('pkj'), { clientAuthentication: 'private_key_jwt', jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'nope', y: 'nope' }] } }));
    expect(fieldMessages(garbage.body)['jwks.keys.0']).to.match(/^Key 1 cannot be used/);
    const address = await create(newApp(unique('pkj'), { clientAuthentication: 'private_key_jwt', jwksUri: 'http://keys.example.com/jwks' }));
    expect(fieldMessages(address.body).jwksUri).to.match(/address of the JWKS/);
    // Nothing of the refused ones was stored.
    const [{ count }] = await w.context.dataSource.query(`SELECT count(*)::int AS count FROM applications WHERE name LIKE 'pkj-%'`);
    expect(count).to.equal(0);
  });

  it('refuses private_key_jwt for a public application, in the caller’s language', async () => {
    const res = await call(w, 'post', '/applications', { body: newApp(unique('pub'), { type: 'public', clientAuthentication: 'private_key_jwt', jwks: { keys: [jwkPair().publicJwk] } }), lang: 'fr' });
    expect(res.status).to.equal(400);
    expect(fieldMessages(res.body).clientAuthentication).to.be.a('string').and.not.match(/A public application/);
  });

  it('keeps the keys when a change does not send them, and refuses to drop them while private_key_jwt needs them', async () => {
    const { publicJwk } = jwkPair();
    const created = await create(newApp(unique('keep'), { clientAuthentication: 'private_key_jwt', jwks: { keys: [publicJwk] } }));
    const kept = await update(created.body.id, { ...formOf(created.body), requirePar: true });
    expect(kept.status, JSON.stringify(kept.body)).to.equal(200);
    expect(kept.body.jwks).to.deep.equal({ keys: [publicJwk] });
    const dropped = await update(created.body.id, { ...formOf(created.body), jwks: null });
    expect(dropped.status).to.equal(400);
    expect(fieldMessages(dropped.body).jwks).to.match(/need the application's public keys/);
  });

  it('refuses token exchange for an unknown application, itself, the product’s own, and from a public application', async () => {
    const created = await create(newApp(unique('ex')));
    const id = created.body.id as string;
    const res = await update(id, { ...formOf(created.body), tokenExchangeAudiences: ['no-such-app', id, 'admin-console'] });
    expect(res.status).to.equal(400);
    expect(fieldMessages(res.body)).to.deep.equal({
      'tokenExchangeAudiences.0': 'There is no application no-such-app',
      'tokenExchangeAudiences.1': 'An application does not exchange tokens for itself',
      'tokenExchangeAudiences.2': "Tokens cannot be exchanged for the product's own applications (admin-console)",
    });
    const target = await create(newApp(unique('target')));
    const fromPublic = await create(newApp(unique('pub'), { type: 'public', tokenExchangeAudiences: [target.body.id] }));
    expect(fieldMessages(fromPublic.body).tokenExchangeAudiences).to.equal("Only a confidential application may exchange users' tokens");
    const productOwn = await update('admin-console', { displayName: 'Console', type: 'public', privateUrl: 'https://product.example.com/', redirectUris: ['https://product.example.com/cb'], tokenExchangeAudiences: [target.body.id] });
    expect(productOwn.status).to.equal(400);
  });

  it('replaces the audiences on a change, and drops one whose application is deleted', async () => {
    const first = await create(newApp(unique('aud')));
    const second = await create(newApp(unique('aud')));
    const source = await create(newApp(unique('src'), { tokenExchangeAudiences: [first.body.id, second.body.id] }));
    expect(source.body.tokenExchangeAudiences).to.have.members([first.body.id, second.body.id]);
    const changed = await update(source.body.id, { ...formOf(source.body), tokenExchangeAudiences: [second.body.id] });
    expect(changed.body.tokenExchangeAudiences).to.deep.equal([second.body.id]);
    expect((await call(w, 'delete', `/applications/${second.body.id}`)).status).to.equal(204);
    const after = await call(w, 'get', `/applications/${source.body.id}`);
    expect(after.body.tokenExchangeAudiences).to.deep.equal([]);
  });

  it('keeps the product’s own applications’ protocol settings as they are', async () => {
    const res = await update('admin-console', { displayName: 'Console', type: 'public', privateUrl: 'https://product.example.com/', redirectUris: ['https://product.example.com/cb'], requirePar: true });
    expect(res.status).to.equal(400);
    expect(res.body.errors?.[0]?.field ?? res.body.field).to.equal('requirePar');
  });
});
