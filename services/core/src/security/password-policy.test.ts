import { expect } from 'chai';
import { DEFAULT_PASSWORD_POLICY, isPasswordExpired } from './password-policy.js';

describe('password expiry', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
  const rotating = { ...DEFAULT_PASSWORD_POLICY, maxAgeDays: 90 };
  const notRotating = { ...DEFAULT_PASSWORD_POLICY, maxAgeDays: 0 };

  it('has a temporary password (never chosen by its user) replaced, with or without rotation', () => {
    expect(isPasswordExpired(null, rotating, now)).to.equal(true);
    expect(isPasswordExpired(null, notRotating, now)).to.equal(true);
  });

  it('has a chosen password replaced past the policy’s age only, and never without rotation', () => {
    expect(isPasswordExpired(daysAgo(89), rotating, now)).to.equal(false);
    expect(isPasswordExpired(daysAgo(91), rotating, now)).to.equal(true);
    expect(isPasswordExpired(daysAgo(3650), notRotating, now)).to.equal(false);
  });
});
