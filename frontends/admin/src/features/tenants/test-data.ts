import type { Tenant, TenantDetail, TenantMember, TenantTreeNode } from './tenants-api';

export const TENANTS = 'GET /api/v1/admin/tenants';
export const NAMESPACES = ['admin', 'directory', 'tenants'] as const;

/** A tenant of the list: in North, manual, not customised; `overrides` say the rest. */
export function tenantRow(overrides: Partial<Tenant> & Pick<Tenant, 'id' | 'title'>): Tenant {
  return {
    areaId: 'a1',
    areaName: 'North',
    parentId: null,
    parentTitle: null,
    taxNumber: null,
    viesNumber: null,
    groupAlias: null,
    auto: 'Manual',
    isUserCustomized: false,
    requiredTwoModeAuthentification: false,
    phishingResistantOnly: false,
    childrenCount: 0,
    modifiedOn: '2026-03-04T10:00:00.000Z',
    ...overrides,
  };
}

export const node = (id: string, title: string, children: TenantTreeNode[] = []): TenantTreeNode => ({ id, title, areaId: 'a1', children });

/**
 * Acme ─┬─ Berlin
 *       └─ Paris ── Louvre
 * Madrid (another tree)
 */
export const TREE: TenantTreeNode = node('t-acme', 'Acme', [node('t-berlin', 'Berlin'), node('t-paris', 'Paris', [node('t-louvre', 'Louvre')])]);

export const acme = tenantRow({ id: 't-acme', title: 'Acme', childrenCount: 2, hierarchyItems: [] });
export const paris = tenantRow({
  id: 't-paris',
  title: 'Paris',
  areaId: 'a2',
  areaName: 'South',
  parentId: 't-acme',
  parentTitle: 'Acme',
  taxNumber: 'B12345678',
  viesNumber: 'FR12345678901',
  auto: 'Auto',
  isUserCustomized: true,
  childrenCount: 1,
  hierarchyItems: [{ id: 't-acme', title: 'Acme', order: 0 }],
});
export const madrid = tenantRow({ id: 't-madrid', title: 'Madrid', hierarchyItems: [] });

/** Paris as its page reads it, with its tree. */
export const parisDetail: TenantDetail = { ...paris, requiredTwoModeAuthentification: true, groupAlias: 'paris-team', tree: TREE };

/** A member of a tenant: a user with own roles; `overrides` say the rest. */
export function memberRow(overrides: Partial<TenantMember> & Pick<TenantMember, 'identityId' | 'displayName'>): TenantMember {
  return {
    id: `m-${overrides.identityId}`,
    tenantId: 't-paris',
    tenantName: 'Paris',
    identityType: 'User',
    email: `${overrides.identityId}@mail.example`,
    isInheritable: true,
    hierarchyType: 'Own',
    roles: [],
    ...overrides,
  };
}
