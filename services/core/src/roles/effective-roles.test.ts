import { expect } from 'chai';
import { GLOBAL_TENANT_ID } from '../domain/constants.js';
import type { Tenant, User } from '../entities/identity.js';
import {
  buildApplication,
  buildArea,
  buildGroup,
  buildTenant,
  buildUser,
  ensureGlobalTenant,
  grant,
  sharedTestContext,
} from '../testing/index.js';
import { resolveEffectiveRoles, resolveRoleNames, type EffectiveRole } from './effective-roles.js';

const summary = (roles: EffectiveRole[]) => roles.map((r) => `${r.roleName}:${r.hierarchyType}`).sort();

describe('effective role resolution', () => {
  // Tree: L1 > L2 > L3 > L4 > L5, plus a sibling S2 under L1.
  let tree: Record<'L1' | 'L2' | 'L3' | 'L4' | 'L5' | 'S2', Tenant>;
  let alice: User;
  let bob: User;
  let carol: User;
  let app: Awaited<ReturnType<typeof buildApplication>>;
  let otherApp: Awaited<ReturnType<typeof buildApplication>>;
  let db: Awaited<ReturnType<typeof sharedTestContext>>['dataSource'];

  before(async () => {
    db = (await sharedTestContext()).dataSource;
    await ensureGlobalTenant(db);
    const area = await buildArea(db);
    const L1 = await buildTenant(db, { areaId: area.id });
    const L2 = await buildTenant(db, { areaId: area.id, parentId: L1.id });
    const L3 = await buildTenant(db, { areaId: area.id, parentId: L2.id });
    const L4 = await buildTenant(db, { areaId: area.id, parentId: L3.id });
    const L5 = await buildTenant(db, { areaId: area.id, parentId: L4.id });
    const S2 = await buildTenant(db, { areaId: area.id, parentId: L1.id });
    tree = { L1, L2, L3, L4, L5, S2 };
    app = await buildApplication(db, { roles: ['Editor', 'Reader', 'Auditor', 'Owner'] });
    otherApp = await buildApplication(db, { roles: ['Editor'] });
    alice = await buildUser(db, { areaId: area.id });
    bob = await buildUser(db, { areaId: area.id });
    carol = await buildUser(db, { areaId: area.id });
    const readers = await buildGroup(db, { areaId: area.id, members: [alice, bob] });
    const editors = await buildGroup(db, { areaId: area.id, members: [alice] });
    const { Editor, Reader, Auditor, Owner } = app.roleByName;

    await grant(db, { tenant: L2, user: alice, roles: [Editor!], inheritable: true });
    await grant(db, { tenant: L1, user: alice, roles: [Owner!], inheritable: false });
    await grant(db, { tenant: L3, group: readers, roles: [Reader!], inheritable: false });
    await grant(db, { tenant: L4, group: editors, roles: [Editor!], inheritable: true });
    await grant(db, { tenant: GLOBAL_TENANT_ID, user: bob, roles: [Auditor!], inheritable: false });
    await grant(db, { tenant: L5, user: carol, roles: [otherApp.roleByName.Editor!] });
  });

  it('gives a role granted in a tenant as Own there', async () => {
    const roles = await resolveEffectiveRoles(db, alice.id, { tenantId: tree.L2.id, applicationId: app.id });
    expect(summary(roles)).to.deep.equal(['Editor:Own']);
  });

  it('passes an inheritable role down every level below, as ByHierarchy', async () => {
    const roles = await resolveEffectiveRoles(db, alice.id, { tenantId: tree.L3.id, applicationId: app.id });
    expect(summary(roles)).to.deep.equal(['Editor:ByHierarchy', 'Reader:Own']);
  });

  it('reports Both where a role is held directly (through a group) and inherited', async () => {
    const roles = await resolveEffectiveRoles(db, alice.id, { tenantId: tree.L4.id, applicationId: app.id });
    expect(summary(roles)).to.deep.equal(['Editor:Both']);
    const deeper = await resolveEffectiveRoles(db, alice.id, { tenantId: tree.L5.id, applicationId: app.id });
    expect(summary(deeper)).to.deep.equal(['Editor:ByHierarchy']);
  });

  it('does not pass a non-inheritable membership down, nor across to siblings', async () => {
    expect(summary(await resolveEffectiveRoles(db, alice.id, { tenantId: tree.L1.id, applicationId: app.id }))).to.deep.equal(['Owner:Own']);
    expect(await resolveEffectiveRoles(db, alice.id, { tenantId: tree.S2.id, applicationId: app.id })).to.deep.equal([]);
    expect(summary(await resolveEffectiveRoles(db, bob.id, { tenantId: tree.L4.id, applicationId: app.id }))).to.deep.equal([
      'Auditor:ByHierarchy',
    ]);
  });

  it('applies roles held in the Global tenant in every tenant, whatever the inheritable flag', async () => {
    for (const tenant of Object.values(tree)) {
      const roles = await resolveEffectiveRoles(db, bob.id, { tenantId: tenant.id, applicationId: app.id });
      expect(roles.map((r) => r.roleName), tenant.title).to.include('Auditor');
    }
    const inGlobal = await resolveEffectiveRoles(db, bob.id, { tenantId: GLOBAL_TENANT_ID, applicationId: app.id });
    expect(summary(inGlobal)).to.deep.equal(['Auditor:Own']);
  });

  it('lists every tenant with its roles when no tenant is given, Global roles once under Global', async () => {
    const roles = await resolveEffectiveRoles(db, alice.id, { applicationId: app.id });
    const byTenant = (t: Tenant) => summary(roles.filter((r) => r.tenantId === t.id));
    expect(byTenant(tree.L1)).to.deep.equal(['Owner:Own']);
    expect(byTenant(tree.L2)).to.deep.equal(['Editor:Own']);
    expect(byTenant(tree.L3)).to.deep.equal(['Editor:ByHierarchy', 'Reader:Own']);
    expect(byTenant(tree.L4)).to.deep.equal(['Editor:Both']);
    expect(byTenant(tree.L5)).to.deep.equal(['Editor:ByHierarchy']);
    expect(byTenant(tree.S2)).to.deep.equal([]);

    const bobs = await resolveEffectiveRoles(db, bob.id, { applicationId: app.id });
    expect(bobs.map((r) => [r.tenantId, r.roleName, r.hierarchyType])).to.deep.equal([
      [GLOBAL_TENANT_ID, 'Auditor', 'Own'],
      [tree.L3.id, 'Reader', 'Own'],
    ]);
  });

  it('lists every tenant of a large inherited subtree with each role once, by tenant, then application, then role name', async () => {
    const area = await buildArea(db);
    const root = await buildTenant(db, { areaId: area.id });
    const below: Tenant[] = [];
    for (let i = 0; i < 40; i++) below.push(await buildTenant(db, { areaId: area.id, parentId: (below[i % 7] ?? root).id }));
    const first = await buildApplication(db, { name: 'Aaa bench', roles: ['Alpha', 'Beta'] });
    const second = await buildApplication(db, { name: 'Bbb bench', roles: ['Alpha'] });
    const erin = await buildUser(db, { areaId: area.id });
    await grant(db, { tenant: root, user: erin, roles: [first.roleByName.Beta!, second.roleByName.Alpha!], inheritable: true });
    await grant(db, { tenant: below[3]!, user: erin, roles: [first.roleByName.Alpha!, first.roleByName.Beta!], inheritable: false });

    const roles = await resolveEffectiveRoles(db, erin.id);

    const expected = [root, ...below]
      .map((tenant) => tenant.id)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap((tenantId) => {
        const own = tenantId === root.id;
        const inherited = own ? 'Own' : 'ByHierarchy';
        const rows: Array<[string, string, string, string]> = [];
        if (tenantId === below[3]!.id) rows.push([tenantId, 'Aaa bench', 'Alpha', 'Own'], [tenantId, 'Aaa bench', 'Beta', 'Both']);
        else rows.push([tenantId, 'Aaa bench', 'Beta', inherited]);
        rows.push([tenantId, 'Bbb bench', 'Alpha', inherited]);
        return rows;
      });
    expect(roles.map((r) => [r.tenantId, r.applicationName, r.roleName, r.hierarchyType])).to.deep.equal(expected);
    expect(roles.every((r) => r.applicationId === (r.applicationName === 'Aaa bench' ? first.id : second.id))).to.equal(true);
    expect(new Set(roles.map((r) => r.roleId))).to.deep.equal(new Set([first.roleByName.Alpha!.id, first.roleByName.Beta!.id, second.roleByName.Alpha!.id]));
  });

  it('filters by application and names the application of each role', async () => {
    const all = await resolveEffectiveRoles(db, carol.id, { tenantId: tree.L5.id });
    expect(all.map((r) => [r.applicationId, r.applicationName, r.roleName])).to.deep.equal([[otherApp.id, otherApp.name, 'Editor']]);
    expect(await resolveEffectiveRoles(db, carol.id, { tenantId: tree.L5.id, applicationId: app.id })).to.deep.equal([]);
  });

  it('answers nothing for a user without memberships', async () => {
    const loner = await buildUser(db);
    expect(await resolveEffectiveRoles(db, loner.id)).to.deep.equal([]);
  });

  it('names the same roles per application as the full resolution, without walking the tree', async () => {
    for (const user of [alice, bob, carol]) {
      for (const application of [app, otherApp]) {
        const full = await resolveEffectiveRoles(db, user.id, { applicationId: application.id });
        const names = [...new Set(full.map((r) => r.roleName))].sort();
        expect(await resolveRoleNames(db, user.id, application.id), `${user.userName} in ${application.name}`).to.deep.equal(names);
      }
    }
    expect(await resolveRoleNames(db, alice.id, app.id)).to.deep.equal(['Editor', 'Owner', 'Reader']);
  });

  it('follows a subtree when its tenant moves under an inheriting one, and drops it when it moves away', async () => {
    const area = await buildArea(db);
    const P = await buildTenant(db, { areaId: area.id });
    const C = await buildTenant(db, { areaId: area.id });
    const D = await buildTenant(db, { areaId: area.id, parentId: C.id });
    const dave = await buildUser(db, { areaId: area.id });
    await grant(db, { tenant: P, user: dave, roles: [app.roleByName.Reader!], inheritable: true });
    await grant(db, { tenant: D, user: dave, roles: [app.roleByName.Reader!], inheritable: false });
    const inD = async () => summary(await resolveEffectiveRoles(db, dave.id, { tenantId: D.id, applicationId: app.id }));
    const allD = async () => summary((await resolveEffectiveRoles(db, dave.id, { applicationId: app.id })).filter((r) => r.tenantId === D.id));

    expect(await inD()).to.deep.equal(['Reader:Own']);
    expect(await allD()).to.deep.equal(['Reader:Own']);
    await db.query('UPDATE tenants SET parent_id = $1 WHERE id = $2', [P.id, C.id]);
    expect(await inD()).to.deep.equal(['Reader:Both']);
    expect(await allD()).to.deep.equal(['Reader:Both']);
    await db.query('UPDATE tenants SET parent_id = NULL WHERE id = $1', [C.id]);
    expect(await inD()).to.deep.equal(['Reader:Own']);
    expect(await allD()).to.deep.equal(['Reader:Own']);
  });
});
