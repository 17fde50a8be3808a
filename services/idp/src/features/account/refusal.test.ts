import { createServerI18n } from '@gatehouse/core';
import { expect } from 'chai';
import { refusalResponse } from './login-response.js';
import { formatUtc, lockRefusal, lockStateRefusal, lockedOut, logResultOf } from './refusal.js';

describe('lock refusals', () => {
  const until = new Date('2026-03-04T05:06:07.890Z');

  it('says a date as "YYYY-MM-DD HH:MM UTC"', () => {
    expect(formatUtc(until)).to.equal('2026-03-04 05:06 UTC');
  });

  it('answers each lock outcome in the spec words, with its status', () => {
    expect(lockRefusal({ kind: 'counted', attemptsLeft: 3 })).to.deep.equal({ ok: false, status: 401, code: 'account.invalid_credentials', params: { count: 3 }, attemptsLeft: 3 });
    expect(lockRefusal({ kind: 'busy' })).to.include({ status: 429, code: 'account.too_many_attempts', retryAfter: 1 });
    for (const kind of ['locked', 'already_locked'] as const) {
      expect(lockRefusal({ kind, until, attempts: 7 })).to.deep.equal({
        ok: false,
        status: 423,
        code: 'account.locked',
        params: { until: '2026-03-04 05:06 UTC', count: 7 },
        lockedUntil: until,
        lockedAfter: 7,
      });
    }
    for (const kind of ['permanent', 'permanently_locked', 'already_permanently_locked'] as const) {
      expect(lockRefusal({ kind })).to.deep.equal({ ok: false, status: 423, code: 'account.locked_permanently' });
    }
  });

  it('heads a lock said past the password with "User Is Locked Out", the lock’s own message after it, and leaves other refusals alone', () => {
    const i18n = createServerI18n();
    const t = (key: string, params: Record<string, unknown> = {}) => i18n.t(key, { lng: 'en', ...params }) as string;
    const locked = lockedOut(lockRefusal({ kind: 'locked', until, attempts: 5 }));
    expect(locked).to.include({ status: 423, code: 'account.locked_out', detail: 'account.locked', lockedUntil: until, lockedAfter: 5 });
    expect(refusalResponse(locked, t)).to.deep.include({
      code: 'account.locked_out',
      errors: ['User Is Locked Out', 'Your account is locked after 5 failed attempts. Try again after 2026-03-04 05:06 UTC.'],
    });
    expect(refusalResponse(lockedOut(lockRefusal({ kind: 'permanent' })), t).errors).to.deep.equal([
      'User Is Locked Out',
      'Your account is blocked. An administrator must unblock it.',
    ]);
    expect(refusalResponse(lockedOut(lockRefusal({ kind: 'busy' })), t).errors).to.deep.equal(['Too many sign-in attempts. Wait a moment and try again.']);
    expect(refusalResponse(lockedOut(lockRefusal({ kind: 'counted', attemptsLeft: 2 })), t).code).to.equal('account.invalid_credentials');
  });

  it('reads an account lock state: a permanent lock wins, else the temporary lock until its end', () => {
    expect(lockStateRefusal({ locked: true, lockoutEnd: until }, 5).code).to.equal('account.locked_permanently');
    expect(lockStateRefusal({ locked: false, lockoutEnd: until }, 3)).to.include({ code: 'account.locked', lockedUntil: until, lockedAfter: 3 });
  });

  it('logs a failed attempt as Failure, UserLocked or FullUserLocked', () => {
    expect(logResultOf({ kind: 'counted', attemptsLeft: 1 })).to.equal('Failure');
    expect(logResultOf({ kind: 'locked', until, attempts: 5 })).to.equal('UserLocked');
    expect(logResultOf({ kind: 'already_locked', until, attempts: 5 })).to.equal('UserLocked');
    expect(logResultOf({ kind: 'permanently_locked' })).to.equal('FullUserLocked');
  });
});
