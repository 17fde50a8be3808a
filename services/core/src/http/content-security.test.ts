import { expect } from 'chai';
import { cspNonce, pageContentSecurityPolicy } from './content-security.js';

describe('content security nonces', () => {
  it('gives 128 random bits per answer, never the same value twice across refills of its pool', () => {
    const drawn = Array.from({ length: 2000 }, () => cspNonce());
    for (const nonce of drawn) expect(Buffer.from(nonce, 'base64')).to.have.length(16);
    expect(new Set(drawn).size).to.equal(drawn.length);
    // Each bit position is set about half the time: no byte of the pool is left zero or reused.
    const ones = drawn.reduce((sum, nonce) => sum + [...Buffer.from(nonce, 'base64')].reduce((bits, byte) => bits + byte.toString(2).replaceAll('0', '').length, 0), 0);
    expect(ones / (drawn.length * 128)).to.be.within(0.48, 0.52);
  });

  it('puts the nonce into the page policy as the only script source', () => {
    const nonce = cspNonce();
    expect(pageContentSecurityPolicy({ scriptNonce: nonce })).to.include(`script-src 'nonce-${nonce}';`);
  });
});
