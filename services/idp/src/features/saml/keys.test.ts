import { X509Certificate, createPublicKey } from 'node:crypto';
import { expect } from 'chai';
import { exportJWK, generateKeyPair } from 'jose';
import { certificateFor } from './keys.js';

describe('SAML signing certificates', () => {
  it('are the same for the same key, whenever and however often they are made', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'key-1' };
    const created = new Date('2026-01-02T03:04:05.678Z');
    const first = await certificateFor(jwk, created, 'id.example.com');
    const second = await certificateFor({ ...jwk }, new Date(created), 'id.example.com');
    expect(second.toString('pem')).to.equal(first.toString('pem'));

    const parsed = new X509Certificate(first.toString('pem'));
    expect(parsed.subject).to.equal('CN=id.example.com');
    expect(parsed.verify(parsed.publicKey), 'self-signed').to.equal(true);
    expect(parsed.publicKey.export({ format: 'jwk' })).to.deep.equal(createPublicKey({ key: (await exportJWK(publicKey)) as never, format: 'jwk' }).export({ format: 'jwk' }));
    expect(new Date(parsed.validFrom).toISOString()).to.equal('2026-01-02T03:04:05.000Z');

    const other = await certificateFor({ ...jwk, kid: 'key-2' }, created, 'id.example.com');
    expect(other.serialNumber, 'another key id, another serial').to.not.equal(first.serialNumber);
  });
});
