import { buildApplication } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { buildAdminWorld, call, userIn, type AdminWorld } from '../../testing/admin-world.js';

describe('applications hidden from user lists (the product’s own clients)', () => {
  let w: AdminWorld;
  let shown: Awaited<ReturnType<typeof buildApplication>>;
  let hidden: Awaited<ReturnType<typeof buildApplication>>;

  before(async () => {
    w = await buildAdminWorld();
    shown = await buildApplication(w.context.dataSource, { roles: ['Reader'] });
    hidden = await buildApplication(w.context.dataSource, { roles: ['Operator'], hideInUserList: true });
  });

  it('leaves them out of the roles every picker lists, and still answers them when named', async () => {
    const all = await call(w, 'get', '/applications/approles?top=1000');
    expect(all.status).to.equal(200);
    const applications = new Set(all.body.items.map((role: { applicationId: string }) => role.applicationId));
    expect(applications.has(shown.id)).to.equal(true);
    expect(applications.has(hidden.id)).to.equal(false);
    const named = await call(w, 'get', `/applications/approles?applicationId=${hidden.id}`);
    expect(named.body.items.map((role: { name: string }) => role.name)).to.deep.equal(['Operator']);
  });

  it('leaves them out of a user’s role-access list', async () => {
    const user = await userIn(w, w.areaA);
    const res = await call(w, 'get', `/users/${user.id}/roles`);
    expect(res.status).to.equal(200);
    const ids = res.body.items.map((access: { applicationId: string }) => access.applicationId);
    expect(ids).to.include(shown.id);
    expect(ids).to.not.include(hidden.id);
  });
});
