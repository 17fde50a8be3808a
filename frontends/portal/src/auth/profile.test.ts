import { describe, expect, it } from 'vitest';
import { firstName, fullName, initials, userNameOf } from './profile';

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
});
