import { expect } from 'chai';
import type { AppContext } from '../context.js';
import { sharedTestContext } from '../testing/context.js';
import { buildUser } from '../testing/factories.js';
import {
  RECOVERY_CODE_ALPHABET,
  consumeRecoveryCode,
  generateRecoveryCodes,
  holdsRecoveryCode,
  normalizeRecoveryCode,
  recoveryCodeHash,
  replaceRecoveryCodes,
} from './recovery-codes.js';

describe('recovery codes', () => {
  let context: AppContext;

  before(async () => {
    context = await sharedTestContext();
  });

  it('makes ten distinct codes of two groups of five characters from an alphabet of 32 unambiguous symbols (50 bits each)', () => {
    expect(RECOVERY_CODE_ALPHABET).to.have.length(32);
    expect(RECOVERY_CODE_ALPHABET).to.not.match(/[ilou]/);
    const codes = generateRecoveryCodes();
    expect(codes).to.have.length(10);
    expect(new Set(codes).size).to.equal(10);
    for (const code of codes) expect(code).to.match(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
  });

  it('draws every symbol of the alphabet, evenly enough for a uniform draw', () => {
    const counts = new Map<string, number>();
    for (const code of generateRecoveryCodes(2000)) for (const c of code.replace('-', '')) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).to.equal(32);
    // 20,000 draws: 625 expected per symbol; a biased generator would leave some far off.
    for (const [symbol, count] of counts) expect(count, symbol).to.be.within(480, 780);
  });

  it('reads a code however it is typed (case, spaces, dashes, O for 0, I or L for 1), and refuses what cannot be one', () => {
    expect(normalizeRecoveryCode(' ABCDE-0a1b2 ')).to.equal('abcde0a1b2');
    expect(normalizeRecoveryCode('abcde 0a1b2')).to.equal('abcde0a1b2');
    expect(normalizeRecoveryCode('abcdeOaIbL')).to.equal('abcde0a1b1');
    for (const bad of ['', 'abcde', 'abcde-0a1b2-x', 'abcdu-0a1b2', 'abcde_0a1b2', "abcde'0a1b"]) expect(normalizeRecoveryCode(bad), bad).to.equal(undefined);
  });

  it('stores only keyed hashes, bound to the user: the same code hashes differently for another user', async () => {
    const user = await buildUser(context.dataSource);
    const codes = generateRecoveryCodes();
    await replaceRecoveryCodes(context.dataSource, context.secrets, user.id, codes);
    const rows: Array<{ code_hash: string }> = await context.dataSource.query('SELECT code_hash FROM user_recovery_codes WHERE user_id = $1', [user.id]);
    expect(rows).to.have.length(10);
    const stored = rows.map((r) => r.code_hash);
    for (const code of codes) {
      const normalized = normalizeRecoveryCode(code)!;
      expect(stored).to.not.include(normalized);
      expect(stored).to.include(recoveryCodeHash(context.secrets, user.id, normalized));
      expect(recoveryCodeHash(context.secrets, '00000000-0000-0000-0000-000000000001', normalized)).to.not.equal(recoveryCodeHash(context.secrets, user.id, normalized));
    }
  });

  it('uses a code once, even when ten requests use it at the same moment', async () => {
    const user = await buildUser(context.dataSource);
    const [code] = generateRecoveryCodes();
    await replaceRecoveryCodes(context.dataSource, context.secrets, user.id, [code!]);
    const normalized = normalizeRecoveryCode(code!)!;
    const results = await Promise.all(Array.from({ length: 10 }, () => consumeRecoveryCode(context.dataSource, context.secrets, user.id, normalized)));
    expect(results.filter(Boolean)).to.have.length(1);
    expect(await consumeRecoveryCode(context.dataSource, context.secrets, user.id, normalized)).to.equal(false);
    expect(await holdsRecoveryCode(context.dataSource, context.secrets, user.id, normalized)).to.equal(false);
  });

  it("never takes one user's code for another's", async () => {
    const [owner, other] = [await buildUser(context.dataSource), await buildUser(context.dataSource)];
    const [code] = generateRecoveryCodes();
    await replaceRecoveryCodes(context.dataSource, context.secrets, owner.id, [code!]);
    expect(await consumeRecoveryCode(context.dataSource, context.secrets, other.id, normalizeRecoveryCode(code!)!)).to.equal(false);
    expect(await holdsRecoveryCode(context.dataSource, context.secrets, owner.id, normalizeRecoveryCode(code!)!)).to.equal(true);
  });

  it('replaces the previous codes, and two replacements at once leave the codes of one of them only', async () => {
    const user = await buildUser(context.dataSource);
    const first = generateRecoveryCodes();
    await replaceRecoveryCodes(context.dataSource, context.secrets, user.id, first);
    const [second, third] = [generateRecoveryCodes(), generateRecoveryCodes()];
    await Promise.all([second, third].map((codes) => replaceRecoveryCodes(context.dataSource, context.secrets, user.id, codes)));
    const held = async (codes: string[]) => {
      let count = 0;
      for (const code of codes) if (await holdsRecoveryCode(context.dataSource, context.secrets, user.id, normalizeRecoveryCode(code)!)) count++;
      return count;
    };
    expect(await held(first), 'the first codes stop working').to.equal(0);
    expect([await held(second), await held(third)].sort()).to.deep.equal([0, 10]);
    const [user_] = await context.dataSource.query('SELECT recovery_codes_generated_at FROM users WHERE id = $1', [user.id]);
    expect(user_.recovery_codes_generated_at).to.be.instanceOf(Date);
  });
});
