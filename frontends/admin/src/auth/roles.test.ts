import { describe, expect, it } from 'vitest';
import { adminMe } from '../test-utils';
import { grants } from './roles';
import { toCurrentUser } from './use-current-user';

describe('roles', () => {
  it('counts God as Administrator, and not the other way round', () => {
    expect(grants(['God'], 'Administrator')).toBe(true);
    expect(grants(['Administrator'], 'God')).toBe(false);
    expect(grants(['God'], 'AreaAdministrator')).toBe(false);
    expect(grants(['Manager'], 'Administrator', 'Manager')).toBe(true);
  });
});

describe('toCurrentUser', () => {
  it('names the user and answers role questions', () => {
    const user = toCurrentUser(adminMe(['AreaAdministrator', 'God'], { id: 'u1', firstName: 'Ada', lastName: 'Lovelace' }));

    expect(user).toMatchObject({ id: 'u1', userName: 'ada@example.com', fullName: 'Ada Lovelace', isAdministrator: true, isGod: true });
    expect(user.hasRole('Administrator')).toBe(true);
    expect(user.hasRole('Manager')).toBe(false);
    expect(user.hasRole('Manager', 'AreaAdministrator')).toBe(true);
  });

  it('falls back to the user name and tells a plain Administrator from God', () => {
    const user = toCurrentUser(adminMe(['Administrator'], { firstName: null, lastName: '', userName: 'ada' }));

    expect(user.fullName).toBe('ada');
    expect(user.isAdministrator).toBe(true);
    expect(user.isGod).toBe(false);
  });
});
