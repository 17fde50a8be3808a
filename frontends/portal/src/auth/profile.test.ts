import { describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_MS, firstName, fullName, initials, sessionExpiresAt, userNameOf } from './profile';
import { safeReturnTo } from './return-to';

describe('profile helpers', () => {
  it('name the user by first and last name, else the name claim', () => {
    expect(fullName({ sub: '1', given_name: 'Ana', family_name: 'Lima', name: 'x' })).toBe('Ana Lima');
    expect(fullName({ sub: '1', given_name: ' ', name: 'ana@example.com' })).toBe('ana@example.com');
    expect(firstName({ sub: '1', name: 'Ana Lima' })).toBe('Ana');
    expect(initials({ sub: '1', given_name: 'ana', family_name: 'de Lima' })).toBe('AL');
    expect(initials({ sub: '1', name: 'ana@example.com' })).toBe('A');
    expect(initials({ sub: '1', email: 'jane.doe@example.com' })).toBe('JD');
    expect(initials(undefined)).toBe('');
  });

  it('uses the e-mail as login name unless the provider sends one', () => {
    expect(userNameOf({ sub: '1', email: 'ana@example.com' })).toBe('ana@example.com');
    expect(userNameOf({ sub: '1', email: 'ana@example.com', preferred_username: 'ana' })).toBe('ana');
  });

  it('ends the session at exp_time, else 24 hours after the sign-in', () => {
    expect(sessionExpiresAt({ sub: '1', exp_time: 2000 }, 0)).toBe(2_000_000);
    expect(sessionExpiresAt({ sub: '1', auth_time: 1000 }, 5)).toBe(1_000_000 + DEFAULT_SESSION_MS);
    expect(sessionExpiresAt({ sub: '1' }, 5000)).toBe(5000 + DEFAULT_SESSION_MS);
  });
});

describe('safeReturnTo', () => {
  it.each([
    ['/profile?tab=2#x', '/profile?tab=2#x'],
    ['/', '/'],
    ['https://evil.example.com/', '/'],
    ['//evil.example.com/', '/'],
    ['/\\evil.example.com', '/'],
    ['/auth/callback?code=1', '/'],
    [undefined, '/'],
    [42, '/'],
  ])('keeps %j as %j', (value, expected) => {
    expect(safeReturnTo(value)).toBe(expected);
  });
});
