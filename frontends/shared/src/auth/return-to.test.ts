import { describe, expect, it } from 'vitest';
import { safeReturnTo, sameOriginPath } from './return-to';

describe('safeReturnTo', () => {
  it.each([
    ['/profile?tab=2#x', '/profile?tab=2#x'],
    ['/', '/'],
    ['https://evil.example.com/', '/'],
    ['//evil.example.com/', '/'],
    ['/\\evil.example.com', '/'],
    ['/\t/evil.example.com', '/'],
    ['/\r\n/evil.example.com', '/'],
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

describe('security: sameOriginPath keeps the browser on this site', () => {
  const origin = 'https://id.example.com';

  it.each([
    '/\t/evil.example',
    '/\r\n/evil.example',
    '/\u007f/evil.example',
    '\\\\evil.example',
    '/\\evil.example',
    'https://evil.example/',
    '//evil.example',
    '/..//evil.example',
    'https://id.example.com.evil.example/',
    'javascript:alert(1)',
    '',
    null,
    undefined,
  ])('refuses %j', (value) => {
    expect(sameOriginPath(value, origin)).toBeUndefined();
  });

  it.each([
    ['/profile?tab=2#x', '/profile?tab=2#x'],
    ['https://id.example.com/oidc/auth/uid-1', '/oidc/auth/uid-1'],
    ['/%09/evil.example', '/%09/evil.example'],
    ['home', '/home'],
  ])('keeps %j as %j', (value, expected) => {
    expect(sameOriginPath(value, origin)).toBe(expected);
  });

  it('compares with this page’s origin by default', () => {
    expect(sameOriginPath(`${window.location.origin}/a`)).toBe('/a');
    expect(sameOriginPath('https://evil.example/a')).toBeUndefined();
  });
});
