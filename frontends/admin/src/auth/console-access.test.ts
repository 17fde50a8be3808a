import { ENDPOINT_ROLES } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { CONSOLE_PAGES, mayCall, mayEnterConsole, mayOpenPage, type ConsolePage } from './console-access';

const PAGES = Object.keys(CONSOLE_PAGES) as ConsolePage[];
const pagesOf = (roles: string[]) => PAGES.filter((page) => mayOpenPage(roles, page));

describe('console access', () => {
  it('opens the console to every role with at least one console right, and to nobody else', () => {
    for (const roles of [['Administrator'], ['God'], ['AreaAdministrator'], ['TenantAdministrator'], ['Manager'], ['User', 'Manager']]) {
      expect(mayEnterConsole(roles), roles.join('+')).toBe(true);
    }
    for (const roles of [['IdentityConsultant'], ['ServiceManager'], ['User'], ['IdentityConsultant', 'ServiceManager', 'User'], []]) {
      expect(mayEnterConsole(roles), roles.join('+') || 'no role').toBe(false);
    }
  });

  it('opens to each delegated role the pages whose calls the API answers it', () => {
    expect(pagesOf(['AreaAdministrator'])).toEqual(['users', 'groups', 'logs', 'areas', 'tenants', 'permissions']);
    expect(pagesOf(['TenantAdministrator'])).toEqual(['users', 'groups', 'applications', 'logs', 'areas', 'tenants', 'permissions']);
    expect(pagesOf(['Manager'])).toEqual(['logs', 'areas', 'tenants', 'permissions']);
    // Several roles: the union of what each opens.
    expect(pagesOf(['Manager', 'AreaAdministrator'])).toEqual(['users', 'groups', 'logs', 'areas', 'tenants', 'permissions']);
  });

  it('keeps God’s pages from an Administrator, and gives God every Administrator page', () => {
    const administrator = pagesOf(['Administrator']);
    expect(administrator).not.toContain('securityConfig');
    expect(administrator).not.toContain('control-pats');
    expect(pagesOf(['God'])).toEqual(PAGES);
  });

  it('answers every endpoint as the API’s table does, God counting as Administrator', () => {
    for (const [endpoint, allowed] of Object.entries(ENDPOINT_ROLES) as Array<[keyof typeof ENDPOINT_ROLES, readonly string[] | string]>) {
      if (typeof allowed === 'string') {
        expect(mayCall({ roles: [] }, endpoint), endpoint).toBe(true);
        continue;
      }
      for (const role of ['God', 'Administrator', 'AreaAdministrator', 'TenantAdministrator', 'Manager', 'IdentityConsultant', 'ServiceManager', 'User']) {
        const expected = allowed.includes(role) || (role === 'God' && allowed.includes('Administrator'));
        expect(mayCall({ roles: [role] }, endpoint), `${role} → ${endpoint}`).toBe(expected);
      }
    }
  });
});
