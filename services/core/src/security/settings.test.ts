import { expect } from 'chai';
import type { AppContext } from '../context.js';
import { createTestContext } from '../testing/context.js';
import { SETTINGS_MAX_AGE_MS, SecuritySettings, securitySettings } from './settings.js';

describe('security settings', () => {
  let context: AppContext;

  before(async () => {
    // A database of its own: the settings are one row each for the whole deployment.
    context = await createTestContext({ overrides: { 'signIn.groupDomains': 'group.example' } });
  });

  afterEach(() => context.dataSource.query('DELETE FROM security_configs'));

  const store = (title: string, body: unknown) =>
    context.dataSource.query('INSERT INTO security_configs (title, body) VALUES ($1, $2) ON CONFLICT (title) DO UPDATE SET body = EXCLUDED.body', [title, body]);

  it('applies the defaults while nothing is stored, the group domains being the deployment’s configuration', async () => {
    const values = await new SecuritySettings(context).get();
    expect(values.Lockout).to.deep.equal({ maxFailedAttempts: 5, lockoutMinutes: 5, permanentAfterLockouts: 3 });
    expect(values.PasswordPolicy).to.include({ minLength: 12, historySize: 7, maxAgeDays: 90 });
    expect(values.TokenLifetimes).to.include({ accessTokenSeconds: 3600, adminApiAccessTokenSeconds: 900 });
    expect(values.GroupDomains).to.deep.equal({ domains: ['group.example'], domainFragment: null });
  });

  it('reads what is stored over the defaults, and counts a document that no longer validates as its defaults', async () => {
    await store('Lockout', { maxFailedAttempts: 3 });
    await store('PasswordPolicy', { minLength: 2 });
    const values = await new SecuritySettings(context).get();
    expect(values.Lockout).to.deep.equal({ maxFailedAttempts: 3, lockoutMinutes: 5, permanentAfterLockouts: 3 });
    expect(values.PasswordPolicy.minLength, 'never weaker than the defaults').to.equal(12);
  });

  it('keeps what it read until told of a change, then rereads: a change on one node reaches the others', async () => {
    const node = new SecuritySettings(context);
    await node.get();
    await store('Lockout', { maxFailedAttempts: 4 });
    expect((await node.get()).Lockout.maxFailedAttempts, 'cached').to.equal(5);
    context.broadcast.publish('settings.changed', { name: 'Lockout' });
    expect((await node.get()).Lockout.maxFailedAttempts).to.equal(4);
    node.close();
  });

  it('rereads a minute later even when no change was heard (a node without Redis)', async () => {
    let now = 1_000_000;
    const node = new SecuritySettings(context, () => now);
    await node.get();
    await store('Lockout', { lockoutMinutes: 9 });
    now += SETTINGS_MAX_AGE_MS;
    expect((await node.get()).Lockout.lockoutMinutes).to.equal(9);
    node.close();
  });

  it('does not keep a read that started before a change as fresh', async () => {
    const node = new SecuritySettings(context);
    const early = node.refresh();
    context.broadcast.publish('settings.changed', {});
    await store('Lockout', { maxFailedAttempts: 7 });
    await early;
    expect((await node.get()).Lockout.maxFailedAttempts).to.equal(7);
    node.close();
  });

  it('answers synchronously with the last values read, and keeps them when a read fails', async () => {
    await store('TokenLifetimes', { idTokenSeconds: 600 });
    const node = new SecuritySettings(context);
    expect(node.current().TokenLifetimes.idTokenSeconds, 'before the first read: the defaults').to.equal(3600);
    await node.get();
    expect(node.current().TokenLifetimes.idTokenSeconds).to.equal(600);
    const failing = new SecuritySettings({ ...context, dataSource: { query: async () => Promise.reject(new Error('down')) } as never });
    expect((await failing.get()).TokenLifetimes.idTokenSeconds, 'the defaults, not an error').to.equal(3600);
    node.close();
    failing.close();
  });

  it('is one cache per context', () => {
    expect(securitySettings(context)).to.equal(securitySettings(context));
  });
});
