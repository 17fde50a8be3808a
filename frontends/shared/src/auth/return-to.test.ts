import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to';

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

  it('refuses the callback path the SPA was given', () => {
    expect(safeReturnTo('/signin/done?code=1', '/signin/done')).toBe('/');
    expect(safeReturnTo('/auth/callback', '/signin/done')).toBe('/auth/callback');
  });
});
