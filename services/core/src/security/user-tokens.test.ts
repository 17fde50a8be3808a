import { expect } from 'chai';
import type { AppContext } from '../context.js';
import { sharedTestContext } from '../testing/context.js';
import { buildUser } from '../testing/factories.js';
import { findUserToken, issueUserToken, purgeExpiredUserTokens } from './user-tokens.js';

describe('user tokens', () => {
  let context: AppContext;

  before(async () => {
    context = await sharedTestContext();
  });

  it('are purged a day after they expire, used or not, and not before', async () => {
    const user = await buildUser(context.dataSource);
    const live = await issueUserToken(context, { userId: user.id, purpose: 'PasswordReset', ttlSeconds: 3600 });
    const expiredToday = await issueUserToken(context, { userId: user.id, purpose: 'JobDashboard', ttlSeconds: 60 });
    const expiredLongAgo = await issueUserToken(context, { userId: user.id, purpose: 'IdentifyAs', ttlSeconds: 60 });
    await context.dataSource.query(`UPDATE user_tokens SET expires_at = now() - interval '2 hours' WHERE id = $1`, [expiredToday.id]);
    await context.dataSource.query(`UPDATE user_tokens SET expires_at = now() - interval '25 hours', consumed_at = now() - interval '26 hours' WHERE id = $1`, [
      expiredLongAgo.id,
    ]);

    expect(await purgeExpiredUserTokens(context.dataSource)).to.be.at.least(1);

    const left = (await context.dataSource.query('SELECT id FROM user_tokens WHERE user_id = $1', [user.id])) as Array<{ id: string }>;
    expect(left.map((row) => row.id).sort()).to.deep.equal([live.id, expiredToday.id].sort());
    expect(await findUserToken(context, live.token, 'PasswordReset')).to.include({ id: live.id });
    // Only hashes are kept: the token itself is nowhere in the table.
    const [stored] = (await context.dataSource.query('SELECT token_hash FROM user_tokens WHERE id = $1', [live.id])) as Array<{ token_hash: string }>;
    expect(stored!.token_hash).to.match(/^[0-9a-f]{64}$/).and.not.equal(live.token);
  });
});
