import { Broadcast, type AppContext, type Application } from '@gatehouse/core';
import { expect } from 'chai';
import { ClientRegistry } from './clients.js';

/** A public application row as the repository would read it. */
function row(redirectUri: string, overrides: Partial<Application> = {}): Application {
  return {
    id: 'rp',
    name: 'rp',
    displayName: 'Relying party',
    description: null,
    clientType: 'public',
    clientSecretEncrypted: null,
    enabled: true,
    isFirstParty: false,
    redirectUris: [redirectUri],
    postLogoutRedirectUris: [],
    grantTypes: ['authorization_code', 'refresh_token'],
    backchannelLogoutUri: null,
    idTokenSignedResponseAlg: 'RS256',
    status: 'Running',
    ...overrides,
  } as Application;
}

/**
 * A context whose application table answers what `reads` hands out, one read at a time: each read
 * waits for the test to resolve it, so a change can arrive while it is under way.
 */
function contextWithReads() {
  const pending: Array<(value: Application | null) => void> = [];
  const broadcast = new Broadcast();
  const context = {
    broadcast,
    config: { server: { publicUrl: 'https://id.example.com/identity' }, oidc: { portalClientId: 'portal', adminClientId: 'admin-console' } },
    dataSource: { getRepository: () => ({ findOneBy: () => new Promise<Application | null>((resolve) => pending.push(resolve)) }) },
  } as unknown as AppContext;
  /** Answers the oldest read still waiting; fails when the registry made none (it answered from its cache). */
  const answer = async (value: Application | null) => {
    for (let turn = 0; !pending.length && turn < 100; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(pending.length, 'a read of the application').to.be.greaterThan(0);
    pending.shift()!(value);
  };
  return { context, broadcast, answer, waiting: () => pending.length };
}

describe('ClientRegistry (the provider’s cache of application clients)', () => {
  it('sends the product’s own applications’ codes and signed-out users only to the product’s address, whatever is stored', async () => {
    const { context, answer } = contextWithReads();
    const registry = new ClientRegistry(context);
    for (const name of ['admin-console', 'portal']) {
      const found = registry.find(name);
      await answer(
        row('https://id.example.com/identity/admin/auth/callback', {
          id: name,
          name,
          redirectUris: ['https://id.example.com/identity/admin/auth/callback', 'https://attacker.example.net/cb', 'https://id.example.com/other/cb', 'https://id.example.com.attacker.net/identity/cb'],
          postLogoutRedirectUris: ['https://id.example.com/identity/admin/', 'https://attacker.example.net/'],
        }),
      );
      const client = await found;
      expect(client?.metadata.redirect_uris, name).to.deep.equal(['https://id.example.com/identity/admin/auth/callback']);
      expect(client?.metadata.post_logout_redirect_uris, name).to.deep.equal(['https://id.example.com/identity/admin/']);
    }
    // A business application keeps the addresses it registered.
    const business = registry.find('rp');
    await answer(row('https://attacker.example.net/cb'));
    expect((await business)?.metadata.redirect_uris).to.deep.equal(['https://attacker.example.net/cb']);
    registry.close();
  });

  it('keeps a client it read until its application changes, then reads it again', async () => {
    const { context, broadcast, answer, waiting } = contextWithReads();
    const registry = new ClientRegistry(context);
    const first = registry.find('rp');
    await answer(row('https://rp.example/old'));
    expect((await first)?.metadata.redirect_uris).to.deep.equal(['https://rp.example/old']);
    expect((await registry.find('rp'))?.metadata.redirect_uris, 'from the cache').to.deep.equal(['https://rp.example/old']);
    expect(waiting()).to.equal(0);

    broadcast.publish('application.changed', { clientId: 'rp' });
    const again = registry.find('rp');
    await answer(row('https://rp.example/new'));
    expect((await again)?.metadata.redirect_uris).to.deep.equal(['https://rp.example/new']);
    registry.close();
  });

  it('does not keep a read that a change overtook: the next request reads the changed application', async () => {
    const { context, broadcast, answer } = contextWithReads();
    const registry = new ClientRegistry(context);
    // The read starts before the change is committed and ends after it was announced.
    const stale = registry.find('rp');
    broadcast.publish('application.changed', { clientId: 'rp' });
    await answer(row('https://rp.example/old'));
    expect((await stale)?.metadata.redirect_uris).to.deep.equal(['https://rp.example/old']);

    const next = registry.find('rp');
    await answer(row('https://rp.example/new'));
    expect((await next)?.metadata.redirect_uris).to.deep.equal(['https://rp.example/new']);
    registry.close();
  });

  it('gives a stopped application no grant, so that no sign-in starts', async () => {
    const { context, answer } = contextWithReads();
    const registry = new ClientRegistry(context);
    const found = registry.find('rp');
    await answer(row('https://rp.example/cb', { status: 'Stopped' }));
    const client = await found;
    expect(client?.metadata.grant_types).to.deep.equal([]);
    expect(client?.metadata.redirect_uris).to.deep.equal([]);
    registry.close();
  });
});
