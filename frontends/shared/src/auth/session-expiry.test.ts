import { describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_MS, sessionExpiresAt } from './session-expiry';

describe('sessionExpiresAt', () => {
  it('ends the session at exp_time, else 24 hours after the sign-in', () => {
    expect(sessionExpiresAt({ exp_time: 2000 }, 0)).toBe(2_000_000);
    expect(sessionExpiresAt({ auth_time: 1000 }, 5)).toBe(1_000_000 + DEFAULT_SESSION_MS);
    expect(sessionExpiresAt({}, 5000)).toBe(5000 + DEFAULT_SESSION_MS);
    expect(sessionExpiresAt(undefined, 5000)).toBe(5000 + DEFAULT_SESSION_MS);
  });
});
