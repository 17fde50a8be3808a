import { createTestContext } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { SignJWT, importJWK, jwtVerify, createLocalJWKSet, type JWK } from 'jose';
import { ensureSigningKeys, loadSigningKeys, rotateSigningKeys } from './keys.js';
import { ProviderHost } from './provider-host.js';

// Serves one request through the provider and returns the parsed JSON body.
async function getJson(host: ProviderHost, path: string): Promise<{ keys: JWK[] }> {
  const http = await import('node:http');
  const handle = host.current.callback();
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  try {
    return (await (await fetch(`http://127.0.0.1:${port}${path}`)).json()) as { keys: JWK[] };
  } finally {
    server.close();
  }
}

describe('signing keys', () => {
  it('are created once per algorithm and stored encrypted', async () => {
    const context = await createTestContext();
    expect(await ensureSigningKeys(context)).to.have.length(3);
    expect(await ensureSigningKeys(context), 'a second start creates none').to.have.length(0);
    const rows = await context.dataSource.query('SELECT alg, public_jwk, private_jwk_encrypted FROM signing_keys ORDER BY alg');
    expect(rows.map((r: { alg: string }) => r.alg)).to.deep.equal(['ES256', 'EdDSA', 'RS256']);
    for (const row of rows) {
      expect(row.public_jwk).not.to.have.property('d');
      expect(row.private_jwk_encrypted).not.to.contain('"d"');
      expect(JSON.parse(context.secrets.decrypt(row.private_jwk_encrypted))).to.have.property('d');
    }
  });

  it('rotate: new keys sign, the old ones stay published until their tokens expire, then leave', async () => {
    const context = await createTestContext();
    const host = await ProviderHost.start(context);
    try {
      const before = await getJson(host, '/jwks');
      const oldRs = before.keys.find((k) => k.alg === 'RS256')!;
      const { keys: privateBefore } = await loadSigningKeys(context);
      const oldPrivate = privateBefore.find((k) => k.kid === oldRs.kid)!;
      const oldToken = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'RS256', kid: oldRs.kid }).sign(await importJWK(oldPrivate, 'RS256'));

      const { added } = await rotateSigningKeys(context, 3600);
      await host.refreshKeys();
      const during = await getJson(host, '/jwks');
      const kids = during.keys.map((k) => k.kid);
      expect(kids).to.include.members([...added, oldRs.kid!]);
      const { keys: signing } = await loadSigningKeys(context);
      expect(signing.find((k) => k.alg === 'RS256')!.kid, 'the new key signs first').to.equal(added[0]);
      await jwtVerify(oldToken, createLocalJWKSet(during as never));

      await context.dataSource.query(`UPDATE signing_keys SET retire_at = now() - interval '1 second' WHERE status = 'retiring'`);
      await host.refreshKeys();
      const after = await getJson(host, '/jwks');
      expect(after.keys.map((k) => k.kid)).not.to.include(oldRs.kid);
      expect(after.keys).to.have.length(3);
      const second = await rotateSigningKeys(context, 3600);
      expect(second.retired, 'a later rotation marks the expired ones retired').to.include(oldRs.kid);
    } finally {
      await host.close();
    }
  });
});
