import type { AppContext } from '@gatehouse/core';
import { expect } from 'chai';
import { deviceOf, relyingPartyOf } from './relying-party.js';
import { CHROME_ON_LINUX } from './testing.js';

const at = (publicUrl: string) => ({ config: { server: { publicUrl } } }) as AppContext;

describe('the relying party of passkeys', () => {
  it('is the public URL’s host, and its origin where the browser calls from, whatever path the product is mounted under', () => {
    expect(relyingPartyOf(at('https://id.example.com/idp'))).to.deep.equal({ id: 'id.example.com', origin: 'https://id.example.com', name: 'Gatehouse' });
    expect(relyingPartyOf(at('http://localhost:3000'))).to.include({ id: 'localhost', origin: 'http://localhost:3000' });
    expect(relyingPartyOf(at('https://ID.Example.com:8443/'))).to.include({ id: 'id.example.com', origin: 'https://id.example.com:8443' });
  });

  it('names the browser and system of a User-Agent, with the major version when asked, and nothing for an empty one', () => {
    expect(deviceOf(CHROME_ON_LINUX, { version: true })).to.equal('Chrome 131 on Linux');
    expect(deviceOf(CHROME_ON_LINUX, { version: false })).to.equal('Chrome on Linux');
    const safari = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
    expect(deviceOf(safari, { version: true })).to.equal('Safari 17 on macOS');
    for (const empty of [undefined, null, '', '   ']) expect(deviceOf(empty, { version: true })).to.equal(null);
  });
});
