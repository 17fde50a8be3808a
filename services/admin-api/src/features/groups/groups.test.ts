import { randomUUID } from 'node:crypto';
import type { Area, Group } from '@gatehouse/core';
import { grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import {
  GLOBAL_TENANT_ID,
  addMember,
  announcedDuring,
  buildGroupsWorld,
  call,
  groupIn,
  logsOf,
  membersOf,
  userIn,
  type GroupsWorld,
} from './testing.js';
import { listMembers } from './repository.js';

const MALFORMED_IDS = ['not-a-uuid', '123', `${randomUUID()}x`, "'; DROP TABLE groups; --"];

describe('groups admin API', () => {
  let w: GroupsWorld;

  before(async () => {
    w = await buildGroupsWorld();
  });

  const groupById = async (id: string) => (await w.context.dataSource.query(`SELECT id, name, description, area_id FROM groups WHERE id = $1`, [id]))[0];

  describe('GET /api/v1/admin/groups', () => {
    let area: Area;
    let alpha: Group;
    let bravo: Group;
    let charlie: Group;

    before(async () => {
      // An area of its own, so the list can be filtered down to exactly these groups.
      area = await w.context.dataSource.query(`INSERT INTO areas (name) VALUES ($1) RETURNING id, name`, [`list-${randomUUID()}`]).then((r) => r[0]);
      alpha = await groupIn(w, area, { name: 'Alpha team', description: 'Zulu description' });
      bravo = await groupIn(w, area, { name: 'bravo 50% team', description: 'Matches 100_percent' });
      charlie = await groupIn(w, area, { name: 'Charlie', description: null });
      await addMember(w, alpha, await userIn(w, area));
      await addMember(w, alpha, await userIn(w, area), 'Owner');
      await grant(w.context.dataSource, { tenant: w.tenantA, group: alpha, roles: [w.app.roleByName.Reader!] });
      await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, group: alpha, roles: [w.app.roleByName.Writer!] });
    });

    it('answers { items, count } sorted by name ascending, each with its area, tenants (Global as null, first), members count and ownership', async () => {
      const res = await call(w, 'get', `/groups?area=${area.id}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(3);
      // The database's collation decides the order of names, as in every list.
      const expected = (await w.context.dataSource.query(`SELECT id FROM groups WHERE area_id = $1 ORDER BY name, id`, [area.id])).map((r: { id: string }) => r.id);
      expect(res.body.items.map((g: { id: string }) => g.id)).to.deep.equal(expected);
      const first = res.body.items.find((g: { id: string }) => g.id === alpha.id);
      expect(first).to.deep.equal({
        id: alpha.id,
        name: 'Alpha team',
        description: 'Zulu description',
        areaId: area.id,
        areaName: area.name,
        tenants: [
          { id: null, title: 'Global' },
          { id: w.tenantA.id, title: w.tenantA.title },
        ],
        membersCount: 2,
        userIsOwner: true,
      });
      expect(res.body.items.find((g: { id: string }) => g.id === charlie.id)).to.include({ description: null, membersCount: 0 });
    });

    it('searches name and description in SQL (pattern characters taken literally), sorts by description or area, and pages', async () => {
      const byName = await call(w, 'get', `/groups?area=${area.id}&$search=${encodeURIComponent('50%')}`);
      expect(byName.body.items.map((g: { id: string }) => g.id)).to.deep.equal([bravo.id]);
      const byDescription = await call(w, 'get', `/groups?area=${area.id}&$search=zulu`);
      expect(byDescription.body).to.deep.include({ count: 1 });
      expect(byDescription.body.items[0].id).to.equal(alpha.id);
      const underscore = await call(w, 'get', `/groups?area=${area.id}&$search=0_p`);
      expect(underscore.body.items.map((g: { id: string }) => g.id)).to.deep.equal([bravo.id]);

      const desc = await call(w, 'get', `/groups?area=${area.id}&orderBy=description%20desc`);
      // PostgreSQL sorts NULL first in descending order.
      expect(desc.body.items.map((g: { id: string }) => g.id)).to.deep.equal([charlie.id, alpha.id, bravo.id]);
      const page = await call(w, 'get', `/groups?area=${area.id}&orderBy=description%20desc&skip=1&top=1`);
      expect(page.body).to.deep.include({ count: 3 });
      expect(page.body.items.map((g: { id: string }) => g.id)).to.deep.equal([alpha.id]);
      const past = await call(w, 'get', `/groups?area=${area.id}&skip=10`);
      expect(past.body).to.deep.equal({ items: [], count: 3 });
      const byArea = await call(w, 'get', `/groups?orderBy=areaName&top=1000`);
      expect(byArea.status).to.equal(200);
      const areaNames = byArea.body.items.map((g: { areaName: string }) => g.areaName);
      const sorted = (await w.context.dataSource.query(`SELECT a.name FROM groups g JOIN areas a ON a.id = g.area_id ORDER BY a.name, g.id`)).map((r: { name: string }) => r.name);
      expect(areaNames).to.deep.equal(sorted);
    });

    it('refuses an unknown sort field or a malformed area filter with a 400 naming it', async () => {
      const badSort = await call(w, 'get', '/groups?orderBy=password%20asc');
      expect(badSort.status).to.equal(400);
      expect(badSort.body.errors[0]).to.include({ field: 'orderBy' });
      const badArea = await call(w, 'get', '/groups?area=nope');
      expect(badArea.status).to.equal(400);
      expect(badArea.body.errors[0]).to.include({ field: 'area', code: 'validation.invalid' });
    });

    it('shows an AreaAdministrator only the groups of their areas, owning only those they are Owner of', async () => {
      const mine = await groupIn(w, w.areaA);
      const owned = await groupIn(w, w.areaA);
      await addMember(w, owned, w.callers.areaAdmin, 'Owner');
      const theirs = await groupIn(w, w.areaB);
      const res = await call(w, 'get', '/groups?top=1000', { as: 'areaAdmin' });
      expect(res.status).to.equal(200);
      const ids = res.body.items.map((g: { id: string }) => g.id);
      expect(ids).to.include.members([mine.id, owned.id]);
      expect(ids).to.not.include(theirs.id);
      expect(res.body.items.every((g: { areaId: string }) => g.areaId === w.areaA.id)).to.equal(true);
      expect(res.body.items.find((g: { id: string }) => g.id === mine.id).userIsOwner).to.equal(false);
      expect(res.body.items.find((g: { id: string }) => g.id === owned.id).userIsOwner).to.equal(true);
      const filtered = await call(w, 'get', `/groups?area=${w.areaB.id}`, { as: 'areaAdmin' });
      expect(filtered.body).to.deep.equal({ items: [], count: 0 });
    });

    it('lets a TenantAdministrator read every area, owning nothing; refuses a Manager', async () => {
      const res = await call(w, 'get', `/groups?area=${area.id}`, { as: 'tenantAdmin' });
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(3);
      expect(res.body.items.map((g: { userIsOwner: boolean }) => g.userIsOwner)).to.deep.equal([false, false, false]);
      expect((await call(w, 'get', '/groups', { as: 'manager' })).status).to.equal(403);
    });
  });

  describe('GET /api/v1/admin/groups as the group pickers use it, over the spec’s 10,000 groups', () => {
    const prefix = `picker-${randomUUID().slice(0, 8)}`;
    const nameOf = (n: number) => `${prefix} ${String(n).padStart(5, '0')}`;
    let area: Area;

    before(async () => {
      area = await w.context.dataSource.query(`INSERT INTO areas (name) VALUES ($1) RETURNING id, name`, [`picker-${randomUUID()}`]).then((r) => r[0]);
      await w.context.dataSource.query(
        `INSERT INTO groups (name, area_id) SELECT $1 || ' ' || lpad(n::text, 5, '0'), $2 FROM generate_series(1, 10000) AS n`,
        [prefix, area.id],
      );
    });

    const names = (body: { items: Array<{ name: string }> }) => body.items.map((g) => g.name);

    it('finds a group near the end of the alphabet by a search the server runs', async () => {
      const res = await call(w, 'get', `/groups?$search=${encodeURIComponent(nameOf(9987))}&top=50&orderBy=name asc`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(1);
      expect(names(res.body)).to.deep.equal([nameOf(9987)]);
    });

    it('pages by name, 50 at a time, to the very last of them, as the picker loads more while it scrolls', async () => {
      const page = (skip: number) => call(w, 'get', `/groups?area=${area.id}&top=50&skip=${skip}&orderBy=name asc`);
      const [first, second, last] = await Promise.all([page(0), page(50), page(9950)]);
      expect(first.body.count).to.equal(10_000);
      expect(names(first.body)).to.deep.equal(Array.from({ length: 50 }, (_, i) => nameOf(i + 1)));
      expect(names(second.body)).to.deep.equal(Array.from({ length: 50 }, (_, i) => nameOf(i + 51)));
      expect(names(last.body).at(-1)).to.equal(nameOf(10_000));
      expect(last.body.count).to.equal(10_000);
    });
  });

  describe('GET /api/v1/admin/groups/{id}', () => {
    it('answers the group in the list shape', async () => {
      const group = await groupIn(w, w.areaA, { description: 'About' });
      const res = await call(w, 'get', `/groups/${group.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        id: group.id,
        name: group.name,
        description: 'About',
        areaId: w.areaA.id,
        areaName: w.areaA.name,
        tenants: [],
        membersCount: 0,
        userIsOwner: true,
      });
    });

    it('answers 404 for an unknown group, and for a group outside an AreaAdministrator’s areas', async () => {
      expect((await call(w, 'get', `/groups/${randomUUID()}`)).status).to.equal(404);
      const theirs = await groupIn(w, w.areaB);
      const res = await call(w, 'get', `/groups/${theirs.id}`, { as: 'areaAdmin' });
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('errors.not_found');
    });

    for (const id of MALFORMED_IDS) {
      it(`answers 404, never 500, for the malformed id ${JSON.stringify(id)} on every group route`, async () => {
        const encoded = encodeURIComponent(id);
        const ok = randomUUID();
        const calls = [
          call(w, 'get', `/groups/${encoded}`),
          call(w, 'put', `/groups/${encoded}`, { body: { name: 'x', areaId: w.areaA.id } }),
          call(w, 'delete', `/groups/${encoded}`),
          call(w, 'get', `/groups/${encoded}/users`),
          call(w, 'post', `/groups/${encoded}/users`, { body: { userId: ok } }),
          call(w, 'put', `/groups/${ok}/users/${encoded}`, { body: { permission: 'Owner' } }),
          call(w, 'delete', `/groups/${encoded}/users/${ok}`),
          call(w, 'get', `/groups/${encoded}/roles`),
          call(w, 'post', `/groups/${encoded}/roles`, { body: { tenantId: null, roleIds: [ok] } }),
          call(w, 'delete', `/groups/${ok}/roles/${encoded}`),
          call(w, 'post', `/users/${encoded}/groups`, { body: { groupId: ok } }),
          call(w, 'delete', `/users/${ok}/groups/${encoded}`),
        ];
        for (const [index, res] of (await Promise.all(calls)).entries()) {
          expect(res.status, `call ${index}: ${JSON.stringify(res.body)}`).to.equal(404);
          expect(res.body.code).to.equal('errors.not_found');
        }
      });
    }
  });

  describe('POST /api/v1/admin/groups', () => {
    it('creates the group (201) and writes a CreateGroup system log row with the caller and the group', async () => {
      const name = `created-${randomUUID()}`;
      const res = await call(w, 'post', '/groups', { body: { name: `  ${name} `, description: 'The team', areaId: w.areaA.id } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.deep.include({ name, description: 'The team', areaId: w.areaA.id, areaName: w.areaA.name, tenants: [], membersCount: 0, userIsOwner: true });
      expect(await groupById(res.body.id)).to.deep.equal({ id: res.body.id, name, description: 'The team', area_id: w.areaA.id });
      expect(await logsOf(w, res.body.id)).to.deep.equal([
        {
          user_id: w.callers.admin.id,
          user_name: w.callers.admin.userName,
          tenant_id: null,
          tenant_name: null,
          operation: 'CreateGroup',
          metadata: { groupId: res.body.id, name, description: 'The team', areaId: w.areaA.id, areaName: w.areaA.name, creatorIsOwner: false },
        },
      ]);
    });

    it('answers the spec’s messages for a missing name and area, in English and in French', async () => {
      const en = await call(w, 'post', '/groups', { body: { name: '   ' } });
      expect(en.status).to.equal(400);
      expect(en.body.errors).to.deep.equal([
        { field: 'name', code: 'groups.name_required', message: 'Please input your group name!' },
        { field: 'areaId', code: 'groups.area_required', message: 'Area required' },
      ]);
      const fr = await call(w, 'post', '/groups', { body: {}, lang: 'fr' });
      expect(fr.body.errors.map((e: { message: string }) => e.message)).to.deep.equal(['Veuillez saisir le nom du groupe !', 'Zone obligatoire']);
    });

    it('refuses a name over 200 or a description over 1000 characters, a malformed area and unknown fields, naming each', async () => {
      const res = await call(w, 'post', '/groups', { body: { name: 'n'.repeat(201), description: 'd'.repeat(1001), areaId: 'area' } });
      expect(res.status).to.equal(400);
      expect(res.body.errors).to.deep.equal([
        { field: 'name', code: 'validation.too_long', message: 'name must have at most 200 characters' },
        { field: 'description', code: 'validation.too_long', message: 'description must have at most 1000 characters' },
        { field: 'areaId', code: 'validation.invalid', message: 'areaId is not valid' },
      ]);
      const extra = await call(w, 'post', '/groups', { body: { name: 'x', areaId: w.areaA.id, owner: 'me' } });
      expect(extra.body.errors[0]).to.include({ field: 'owner', code: 'validation.unknown_field' });
    });

    it('answers 409 for a name already used in the area, and allows it in another area', async () => {
      const name = `dup-${randomUUID()}`;
      expect((await call(w, 'post', '/groups', { body: { name, areaId: w.areaA.id } })).status).to.equal(201);
      const again = await call(w, 'post', '/groups', { body: { name, areaId: w.areaA.id }, lang: 'fr' });
      expect(again.status).to.equal(409);
      expect(again.body).to.include({ code: 'errors.group_name_in_use', message: 'Un groupe porte déjà ce nom dans cette zone' });
      expect((await call(w, 'post', '/groups', { body: { name, areaId: w.areaB.id } })).status).to.equal(201);
    });

    it('answers 400 on areaId for an area that does not exist', async () => {
      const res = await call(w, 'post', '/groups', { body: { name: 'x', areaId: randomUUID() } });
      expect(res.status).to.equal(400);
      expect(res.body.errors).to.deep.equal([{ field: 'areaId', code: 'groups.area_not_found', message: 'This area does not exist' }]);
    });

    it('lets an AreaAdministrator create into their area, as the group’s Owner, and nowhere else', async () => {
      const name = `area-admin-${randomUUID()}`;
      const res = await call(w, 'post', '/groups', { as: 'areaAdmin', body: { name, areaId: w.areaA.id } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ membersCount: 1, userIsOwner: true });
      expect(await membersOf(w, res.body.id)).to.deep.equal({ [w.callers.areaAdmin.id]: 'Owner' });
      expect((await logsOf(w, res.body.id))[0]!.metadata).to.include({ creatorIsOwner: true });

      const elsewhere = await call(w, 'post', '/groups', { as: 'areaAdmin', body: { name: `${name}-b`, areaId: w.areaB.id } });
      expect(elsewhere.status).to.equal(403);
      expect(elsewhere.body.code).to.equal('groups.area_forbidden');
      expect(elsewhere.body.errors[0]).to.include({ field: 'areaId', message: 'You can only manage the groups of your own areas' });
      expect(await w.context.dataSource.query(`SELECT id FROM groups WHERE name = $1`, [`${name}-b`])).to.deep.equal([]);
    });

    it('refuses a TenantAdministrator (read-only) and a Manager', async () => {
      for (const as of ['tenantAdmin', 'manager'] as const) {
        const res = await call(w, 'post', '/groups', { as, body: { name: `ro-${randomUUID()}`, areaId: w.areaA.id } });
        expect(res.status).to.equal(403);
        expect(res.body).to.include({ code: 'errors.forbidden', message: 'You do not have permission to perform this action' });
      }
    });
  });

  describe('PUT /api/v1/admin/groups/{id}', () => {
    it('changes name, description and area, and logs the change with the previous values', async () => {
      const group = await groupIn(w, w.areaA, { description: 'Before' });
      const name = `renamed-${randomUUID()}`;
      const res = await call(w, 'put', `/groups/${group.id}`, { body: { name, description: '', areaId: w.areaB.id } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ id: group.id, name, description: null, areaId: w.areaB.id, areaName: w.areaB.name });
      expect(await groupById(group.id)).to.deep.equal({ id: group.id, name, description: null, area_id: w.areaB.id });
      const [log] = await logsOf(w, group.id);
      expect(log).to.deep.equal({
        user_id: w.callers.admin.id,
        user_name: w.callers.admin.userName,
        tenant_id: null,
        tenant_name: null,
        operation: 'UpdateGroup',
        metadata: {
          groupId: group.id,
          name,
          description: null,
          areaId: w.areaB.id,
          areaName: w.areaB.name,
          previous: { name: group.name, description: 'Before', areaId: w.areaA.id, areaName: w.areaA.name },
        },
      });
    });

    it('answers the spec’s messages in French, and 409 for a name taken in the area', async () => {
      const group = await groupIn(w, w.areaA);
      const res = await call(w, 'put', `/groups/${group.id}`, { body: { description: 'x' }, lang: 'fr' });
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { field: string; message: string }) => [e.field, e.message])).to.deep.equal([
        ['name', 'Veuillez saisir le nom du groupe !'],
        ['areaId', 'Zone obligatoire'],
      ]);
      const other = await groupIn(w, w.areaA);
      const taken = await call(w, 'put', `/groups/${group.id}`, { body: { name: other.name, areaId: w.areaA.id } });
      expect(taken.status).to.equal(409);
      expect(taken.body.code).to.equal('errors.group_name_in_use');
    });

    it('keeps an AreaAdministrator to their areas: other areas’ groups are 404, moving out is 403', async () => {
      const mine = await groupIn(w, w.areaA);
      const theirs = await groupIn(w, w.areaB);
      expect((await call(w, 'put', `/groups/${theirs.id}`, { as: 'areaAdmin', body: { name: 'x', areaId: w.areaB.id } })).status).to.equal(404);
      const out = await call(w, 'put', `/groups/${mine.id}`, { as: 'areaAdmin', body: { name: mine.name, areaId: w.areaB.id } });
      expect(out.status).to.equal(403);
      expect(out.body.code).to.equal('groups.area_forbidden');
      expect((await groupById(mine.id)).area_id).to.equal(w.areaA.id);
      const ok = await call(w, 'put', `/groups/${mine.id}`, { as: 'areaAdmin', body: { name: `${mine.name}-2`, areaId: w.areaA.id } });
      expect(ok.status).to.equal(200);
      expect(ok.body.userIsOwner).to.equal(false);
    });

    it('refuses a TenantAdministrator, changing nothing', async () => {
      const group = await groupIn(w, w.areaA);
      const res = await call(w, 'put', `/groups/${group.id}`, { as: 'tenantAdmin', body: { name: 'changed', areaId: w.areaA.id } });
      expect(res.status).to.equal(403);
      expect((await groupById(group.id)).name).to.equal(group.name);
      expect(await logsOf(w, group.id)).to.deep.equal([]);
    });
  });

  describe('DELETE /api/v1/admin/groups/{id}', () => {
    it('deletes the group with its members and tenant roles, logs it, and announces the members’ role change', async () => {
      const group = await groupIn(w, w.areaA);
      const [m1, m2] = [await userIn(w, w.areaA), await userIn(w, w.areaB)];
      await addMember(w, group, m1);
      await addMember(w, group, m2, 'Owner');
      await grant(w.context.dataSource, { tenant: w.tenantA, group, roles: [w.app.roleByName.Reader!] });
      let res: Awaited<ReturnType<typeof call>> | undefined;
      const heard = await announcedDuring(w, async () => (res = await call(w, 'delete', `/groups/${group.id}`)));
      expect(res!.status).to.equal(204);
      expect(heard).to.have.members([m1.id, m2.id]);
      expect(await groupById(group.id)).to.equal(undefined);
      expect(await membersOf(w, group.id)).to.deep.equal({});
      expect(await w.context.dataSource.query(`SELECT id FROM tenant_members WHERE group_id = $1`, [group.id])).to.deep.equal([]);
      const [log] = await logsOf(w, group.id);
      expect(log).to.deep.include({ operation: 'DeleteGroup', user_id: w.callers.admin.id });
      expect(log!.metadata).to.deep.equal({
        groupId: group.id,
        name: group.name,
        areaId: w.areaA.id,
        areaName: w.areaA.name,
        membersCount: 2,
        tenants: [{ id: w.tenantA.id, title: w.tenantA.title }],
      });
      expect((await call(w, 'delete', `/groups/${group.id}`)).status).to.equal(404);
    });

    it('refuses a TenantAdministrator and hides other areas’ groups from an AreaAdministrator', async () => {
      const theirs = await groupIn(w, w.areaB);
      expect((await call(w, 'delete', `/groups/${theirs.id}`, { as: 'tenantAdmin' })).status).to.equal(403);
      expect((await call(w, 'delete', `/groups/${theirs.id}`, { as: 'areaAdmin' })).status).to.equal(404);
      expect(await groupById(theirs.id)).to.not.equal(undefined);
      const mine = await groupIn(w, w.areaA);
      expect((await call(w, 'delete', `/groups/${mine.id}`, { as: 'areaAdmin' })).status).to.equal(204);
    });
  });

  describe('GET /api/v1/admin/groups/{id}/users', () => {
    it('lists the members sorted by user name, searches user name and e-mail, sorts by permission', async () => {
      const group = await groupIn(w, w.areaA);
      const zed = await userIn(w, w.areaA, { userName: `zed-${randomUUID()}@example.com`, firstName: 'Zed', lastName: 'Last' });
      const amy = await userIn(w, w.areaB, { userName: `amy-${randomUUID()}@example.com` });
      await addMember(w, group, zed, 'Owner');
      await addMember(w, group, amy);
      const res = await call(w, 'get', `/groups/${group.id}/users`);
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(2);
      expect(res.body.items).to.deep.equal([
        { userId: amy.id, userName: amy.userName, email: amy.email, firstName: null, lastName: null, groupId: group.id, groupName: group.name, permission: 'Reader' },
        { userId: zed.id, userName: zed.userName, email: zed.email, firstName: 'Zed', lastName: 'Last', groupId: group.id, groupName: group.name, permission: 'Owner' },
      ]);
      const found = await call(w, 'get', `/groups/${group.id}/users?$search=zed-`);
      expect(found.body.items.map((m: { userId: string }) => m.userId)).to.deep.equal([zed.id]);
      const byPermission = await call(w, 'get', `/groups/${group.id}/users?orderBy=permission%20asc`);
      expect(byPermission.body.items.map((m: { permission: string }) => m.permission)).to.deep.equal(['Owner', 'Reader']);
      expect((await call(w, 'get', `/groups/${group.id}/users?orderBy=password`)).status).to.equal(400);
    });

    it('pages the members as one sorted read in every sort (ties of permission broken by the user), counting them all', async () => {
      const group = await groupIn(w, w.areaA);
      const prefix = `member-${randomUUID().slice(0, 8)}`;
      for (let i = 0; i < 23; i++) {
        const user = await userIn(w, i % 2 ? w.areaA : w.areaB, { userName: `${prefix}-${String((i * 7) % 23).padStart(2, '0')}@example.com` });
        await addMember(w, group, user, i % 5 === 0 ? 'Owner' : 'Reader');
      }
      const sorts = { userName: 'u.user_name', email: 'u.email', permission: 'gm.permission' } as const;
      for (const [field, column] of Object.entries(sorts)) {
        for (const direction of ['asc', 'desc']) {
          const all: string[] = (
            await w.context.dataSource.query(
              `SELECT u.id FROM group_members gm JOIN users u ON u.id = gm.user_id WHERE gm.group_id = $1 ORDER BY ${column} ${direction}, u.id`,
              [group.id],
            )
          ).map((row: { id: string }) => row.id);
          for (const skip of [0, 10, 20]) {
            const res = await call(w, 'get', `/groups/${group.id}/users?orderBy=${field}%20${direction}&skip=${skip}&top=10`);
            const what = `${field} ${direction}, skip ${skip}`;
            expect(res.body.items.map((m: { userId: string }) => m.userId), what).to.deep.equal(all.slice(skip, skip + 10));
            expect(res.body.count, what).to.equal(23);
          }
        }
      }
      // A search counts its own matches: -00 to -09, 10 of the 23.
      const searched = await call(w, 'get', `/groups/${group.id}/users?$search=${prefix}-0&top=5`);
      expect(searched.body.count).to.equal(10);
      expect((await call(w, 'get', `/groups/${group.id}/users?$search=${prefix}-0&skip=10`)).body).to.deep.equal({ items: [], count: 10 });
      const lastPage = await call(w, 'get', `/groups/${group.id}/users?$search=${prefix}-0&skip=8&top=5`);
      expect(lastPage.body.items).to.have.length(2);
      expect(lastPage.body.count).to.equal(10);
    });

    it('reads a page of members through the index of its sort: user name, e-mail or permission', async () => {
      const group = await groupIn(w, w.areaA);
      for (let i = 0; i < 3; i++) await addMember(w, group, await userIn(w, w.areaA));
      const statements: Array<{ text: string; values: unknown[] }> = [];
      const recording = {
        query: async <T>(text: string, values: unknown[] = []) => (statements.push({ text, values }), (await w.context.dataSource.query(text, values)) as T),
      };
      const indexes = { 'u.user_name': 'users__user_name_id', 'u.email': 'users__email_id', 'gm.permission': 'group_members__group_id_permission_user_id' };
      for (const [column, index] of Object.entries(indexes)) {
        statements.length = 0;
        await listMembers(recording, group.id, { search: null, skip: 0, top: 2, orderBy: `${column} ASC` });
        const runner = w.context.dataSource.createQueryRunner();
        await runner.connect();
        try {
          await runner.startTransaction();
          // Too few rows here for the planner to prefer an index on its own: show which one it can
          // walk in the list's order when a sequential read or a sort is not an option.
          for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await runner.query(`SET LOCAL ${setting} = off`);
          const plan = ((await runner.query(`EXPLAIN ${statements[0]!.text}`, statements[0]!.values)) as Array<{ 'QUERY PLAN': string }>).map((row) => row['QUERY PLAN']).join('\n');
          expect(plan, `${column}:\n${plan}`).to.match(new RegExp(`Index (Only )?Scan using ${index}`));
          expect(plan, `${column}, read in order:\n${plan}`).to.not.match(/->\s+(Incremental )?Sort/);
        } finally {
          await runner.rollbackTransaction();
          await runner.release();
        }
      }
    });

    it('lets a TenantAdministrator read, and answers 404 outside an AreaAdministrator’s areas', async () => {
      const theirs = await groupIn(w, w.areaB);
      expect((await call(w, 'get', `/groups/${theirs.id}/users`, { as: 'tenantAdmin' })).status).to.equal(200);
      expect((await call(w, 'get', `/groups/${theirs.id}/users`, { as: 'areaAdmin' })).status).to.equal(404);
      expect((await call(w, 'get', `/groups/${randomUUID()}/users`)).status).to.equal(404);
    });
  });

  describe('POST /api/v1/admin/groups/{id}/users', () => {
    it('adds a Reader by default (201), logs it and announces the user’s role change', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      let res: Awaited<ReturnType<typeof call>> | undefined;
      const heard = await announcedDuring(w, async () => (res = await call(w, 'post', `/groups/${group.id}/users`, { body: { userId: user.id } })));
      expect(res!.status, JSON.stringify(res!.body)).to.equal(201);
      expect(res!.body).to.deep.equal({
        userId: user.id,
        userName: user.userName,
        email: user.email,
        firstName: null,
        lastName: null,
        groupId: group.id,
        groupName: group.name,
        permission: 'Reader',
      });
      expect(heard).to.deep.equal([user.id]);
      expect(await membersOf(w, group.id)).to.deep.equal({ [user.id]: 'Reader' });
      expect(await logsOf(w, group.id)).to.deep.equal([
        {
          user_id: w.callers.admin.id,
          user_name: w.callers.admin.userName,
          tenant_id: null,
          tenant_name: null,
          operation: 'AddGroupMember',
          metadata: { groupId: group.id, groupName: group.name, memberId: user.id, memberUserName: user.userName, permission: 'Reader' },
        },
      ]);
    });

    it('answers 409 for a user already in the group, and 400 on userId for an unknown user', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      await addMember(w, group, user);
      const again = await call(w, 'post', `/groups/${group.id}/users`, { body: { userId: user.id, permission: 'Owner' } });
      expect(again.status).to.equal(409);
      expect(again.body).to.include({ code: 'groups.already_member', message: 'This user is already a member of the group' });
      expect(await membersOf(w, group.id)).to.deep.equal({ [user.id]: 'Reader' });
      const unknown = await call(w, 'post', `/groups/${group.id}/users`, { body: { userId: randomUUID() }, lang: 'fr' });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.errors).to.deep.equal([{ field: 'userId', code: 'groups.user_not_found', message: 'Cet utilisateur n’existe pas' }]);
    });

    it('answers "User required" and "Permission required" in English and French, and names a bad permission', async () => {
      const group = await groupIn(w, w.areaA);
      const en = await call(w, 'post', `/groups/${group.id}/users`, { body: { permission: null } });
      expect(en.status).to.equal(400);
      expect(en.body.errors).to.deep.equal([
        { field: 'userId', code: 'groups.user_required', message: 'User required' },
        { field: 'permission', code: 'groups.permission_required', message: 'Permission required' },
      ]);
      const fr = await call(w, 'post', `/groups/${group.id}/users`, { body: { permission: null }, lang: 'fr' });
      expect(fr.body.errors.map((e: { message: string }) => e.message)).to.deep.equal(['Utilisateur obligatoire', 'Permission obligatoire']);
      const bad = await call(w, 'post', `/groups/${group.id}/users`, { body: { userId: randomUUID(), permission: 'Admin' } });
      expect(bad.body.errors).to.deep.equal([
        { field: 'permission', code: 'validation.invalid_value', message: 'permission must be one of: Reader, Owner' },
      ]);
    });

    it('lets an AreaAdministrator who owns the group add members of their areas; a Reader or non-member gets 403', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      const notMember = await call(w, 'post', `/groups/${group.id}/users`, { as: 'areaAdmin', body: { userId: user.id } });
      expect(notMember.status).to.equal(403);
      expect(notMember.body.code).to.equal('errors.forbidden');
      await addMember(w, group, w.callers.areaAdmin, 'Reader');
      const reader = await call(w, 'post', `/groups/${group.id}/users`, { as: 'areaAdmin', body: { userId: user.id }, lang: 'fr' });
      expect(reader.status).to.equal(403);
      expect(reader.body.code).to.equal('errors.forbidden');
      expect(await membersOf(w, group.id)).to.not.have.property(user.id);

      await w.context.dataSource.query(`UPDATE group_members SET permission = 'Owner' WHERE group_id = $1 AND user_id = $2`, [group.id, w.callers.areaAdmin.id]);
      const owner = await call(w, 'post', `/groups/${group.id}/users`, { as: 'areaAdmin', body: { userId: user.id, permission: 'Owner' } });
      expect(owner.status, JSON.stringify(owner.body)).to.equal(201);
      expect(await membersOf(w, group.id)).to.deep.include({ [user.id]: 'Owner' });
      // A user of another area is unknown to them.
      const outsider = await userIn(w, w.areaB);
      const out = await call(w, 'post', `/groups/${group.id}/users`, { as: 'areaAdmin', body: { userId: outsider.id } });
      expect(out.status).to.equal(400);
      expect(out.body.errors[0]).to.include({ field: 'userId', code: 'groups.user_not_found' });
    });

    it('refuses a TenantAdministrator', async () => {
      const group = await groupIn(w, w.areaA);
      const res = await call(w, 'post', `/groups/${group.id}/users`, { as: 'tenantAdmin', body: { userId: (await userIn(w, w.areaA)).id } });
      expect(res.status).to.equal(403);
      expect(await membersOf(w, group.id)).to.deep.equal({});
    });
  });

  describe('PUT /api/v1/admin/groups/{id}/users/{userId}', () => {
    it('changes the permission and logs the previous one', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      await addMember(w, group, user);
      const res = await call(w, 'put', `/groups/${group.id}/users/${user.id}`, { body: { permission: 'Owner' } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ userId: user.id, permission: 'Owner' });
      expect(await membersOf(w, group.id)).to.deep.equal({ [user.id]: 'Owner' });
      const [log] = await logsOf(w, group.id);
      expect(log).to.deep.include({ operation: 'UpdateGroupMember', user_id: w.callers.admin.id });
      expect(log!.metadata).to.deep.equal({
        groupId: group.id,
        groupName: group.name,
        memberId: user.id,
        memberUserName: user.userName,
        permission: 'Owner',
        previous: 'Reader',
      });
    });

    it('answers "Permission required" (en, fr), 404 for a non-member, and 403 to a Reader AreaAdministrator', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      await addMember(w, group, user);
      const en = await call(w, 'put', `/groups/${group.id}/users/${user.id}`, { body: {} });
      expect(en.body.errors).to.deep.equal([{ field: 'permission', code: 'groups.permission_required', message: 'Permission required' }]);
      const fr = await call(w, 'put', `/groups/${group.id}/users/${user.id}`, { body: {}, lang: 'fr' });
      expect(fr.body.errors[0].message).to.equal('Permission obligatoire');
      const stranger = await call(w, 'put', `/groups/${group.id}/users/${(await userIn(w, w.areaA)).id}`, { body: { permission: 'Owner' } });
      expect(stranger.status).to.equal(404);
      expect(stranger.body.code).to.equal('groups.member_not_found');
      await addMember(w, group, w.callers.areaAdmin, 'Reader');
      const reader = await call(w, 'put', `/groups/${group.id}/users/${user.id}`, { as: 'areaAdmin', body: { permission: 'Owner' } });
      expect(reader.status).to.equal(403);
      expect(await membersOf(w, group.id)).to.deep.include({ [user.id]: 'Reader' });
    });
  });

  describe('DELETE /api/v1/admin/groups/{id}/users/{userId}', () => {
    it('removes the member, logs it and announces it; a second time is 404', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      await addMember(w, group, user, 'Owner');
      let status = 0;
      const heard = await announcedDuring(w, async () => (status = (await call(w, 'delete', `/groups/${group.id}/users/${user.id}`)).status));
      expect(status).to.equal(204);
      expect(heard).to.deep.equal([user.id]);
      expect(await membersOf(w, group.id)).to.deep.equal({});
      const [log] = await logsOf(w, group.id);
      expect(log).to.deep.include({ operation: 'RemoveGroupMember' });
      expect(log!.metadata).to.deep.include({ memberId: user.id, permission: 'Owner' });
      expect((await call(w, 'delete', `/groups/${group.id}/users/${user.id}`)).status).to.equal(404);
    });

    it('refuses a Reader AreaAdministrator and lets an Owner one remove', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      await addMember(w, group, user);
      await addMember(w, group, w.callers.areaAdmin, 'Reader');
      expect((await call(w, 'delete', `/groups/${group.id}/users/${user.id}`, { as: 'areaAdmin' })).status).to.equal(403);
      await w.context.dataSource.query(`UPDATE group_members SET permission = 'Owner' WHERE group_id = $1 AND user_id = $2`, [group.id, w.callers.areaAdmin.id]);
      expect((await call(w, 'delete', `/groups/${group.id}/users/${user.id}`, { as: 'areaAdmin' })).status).to.equal(204);
      expect(await membersOf(w, group.id)).to.deep.equal({ [w.callers.areaAdmin.id]: 'Owner' });
    });
  });

  describe('POST and DELETE /api/v1/admin/users/{id}/groups (Add user to group)', () => {
    it('adds the user to the group with the chosen permission, and removes them', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      const res = await call(w, 'post', `/users/${user.id}/groups`, { body: { groupId: group.id, permission: 'Owner' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ userId: user.id, groupId: group.id, groupName: group.name, permission: 'Owner' });
      expect(await membersOf(w, group.id)).to.deep.equal({ [user.id]: 'Owner' });
      expect((await call(w, 'post', `/users/${user.id}/groups`, { body: { groupId: group.id } })).status).to.equal(409);
      expect((await call(w, 'delete', `/users/${user.id}/groups/${group.id}`)).status).to.equal(204);
      expect(await membersOf(w, group.id)).to.deep.equal({});
      expect((await logsOf(w, group.id)).map((l) => l.operation)).to.deep.equal(['AddGroupMember', 'RemoveGroupMember']);
      expect((await call(w, 'delete', `/users/${user.id}/groups/${group.id}`)).status).to.equal(404);
    });

    it('answers "Group required" (en, fr), 400 on groupId for an unknown group, 404 for an unknown user', async () => {
      const user = await userIn(w, w.areaA);
      const en = await call(w, 'post', `/users/${user.id}/groups`, { body: {} });
      expect(en.status).to.equal(400);
      expect(en.body.errors).to.deep.equal([{ field: 'groupId', code: 'groups.group_required', message: 'Group required' }]);
      const fr = await call(w, 'post', `/users/${user.id}/groups`, { body: { permission: null }, lang: 'fr' });
      expect(fr.body.errors.map((e: { message: string }) => e.message)).to.deep.equal(['Groupe obligatoire', 'Permission obligatoire']);
      const unknownGroup = await call(w, 'post', `/users/${user.id}/groups`, { body: { groupId: randomUUID() } });
      expect(unknownGroup.status).to.equal(400);
      expect(unknownGroup.body.errors).to.deep.equal([{ field: 'groupId', code: 'groups.group_not_found', message: 'This group does not exist' }]);
      const group = await groupIn(w, w.areaA);
      expect((await call(w, 'post', `/users/${randomUUID()}/groups`, { body: { groupId: group.id } })).status).to.equal(404);
    });

    it('applies the owner rule and the AreaAdministrator’s areas to the user and the group', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      expect((await call(w, 'post', `/users/${user.id}/groups`, { as: 'areaAdmin', body: { groupId: group.id } })).status).to.equal(403);
      await addMember(w, group, w.callers.areaAdmin, 'Owner');
      expect((await call(w, 'post', `/users/${user.id}/groups`, { as: 'areaAdmin', body: { groupId: group.id } })).status).to.equal(201);
      const outsider = await userIn(w, w.areaB);
      expect((await call(w, 'post', `/users/${outsider.id}/groups`, { as: 'areaAdmin', body: { groupId: group.id } })).status).to.equal(404);
      const theirs = await groupIn(w, w.areaB);
      const hidden = await call(w, 'post', `/users/${user.id}/groups`, { as: 'areaAdmin', body: { groupId: theirs.id } });
      expect(hidden.status).to.equal(400);
      expect(hidden.body.errors[0]).to.include({ field: 'groupId', code: 'groups.group_not_found' });
      expect((await call(w, 'delete', `/users/${user.id}/groups/${group.id}`, { as: 'tenantAdmin' })).status).to.equal(403);
    });
  });

  describe('group tenant roles: GET, POST /groups/{id}/roles, DELETE /groups/{id}/roles/{tenantId}', () => {
    it('creates the membership (201, inheritable by default), then extends it (200), logging each change with the tenant', async () => {
      const group = await groupIn(w, w.areaA);
      const member = await userIn(w, w.areaA);
      await addMember(w, group, member);
      const reader = w.app.roleByName.Reader!;
      const writer = w.app.roleByName.Writer!;
      let created: Awaited<ReturnType<typeof call>> | undefined;
      const heard = await announcedDuring(w, async () => {
        created = await call(w, 'post', `/groups/${group.id}/roles`, { body: { tenantId: w.tenantA.id, roleIds: [reader.id] } });
      });
      expect(created!.status, JSON.stringify(created!.body)).to.equal(201);
      expect(created!.body).to.deep.equal({
        tenantId: w.tenantA.id,
        tenantName: w.tenantA.title,
        isInheritable: true,
        roles: [{ roleId: reader.id, roleName: 'Reader', applicationId: w.app.id, applicationName: w.app.name, applicationDisplayName: w.app.displayName }],
      });
      expect(heard).to.deep.equal([member.id]);

      const extended = await call(w, 'post', `/groups/${group.id}/roles`, { body: { tenantId: w.tenantA.id, roleIds: [reader.id, writer.id], isInheritable: false } });
      expect(extended.status).to.equal(200);
      expect(extended.body.isInheritable).to.equal(false);
      expect(extended.body.roles.map((r: { roleName: string }) => r.roleName)).to.deep.equal(['Reader', 'Writer']);

      const logs = await logsOf(w, group.id);
      expect(logs.map((l) => [l.operation, l.tenant_id, l.tenant_name])).to.deep.equal([
        ['Permission', w.tenantA.id, w.tenantA.title],
        ['Permission', w.tenantA.id, w.tenantA.title],
      ]);
      // One shape for every change of access, whatever the path: what was added and taken, on which membership.
      const role = (r: { id: string }, roleName: string) => ({ roleId: r.id, roleName, applicationId: w.app.id, applicationName: w.app.name });
      expect(logs[0]!.metadata).to.deep.equal({
        action: 'grant',
        via: 'groups',
        identityType: 'Group',
        targetGroupId: group.id,
        targetGroupName: group.name,
        added: [role(reader, 'Reader')],
        removed: [],
        membershipCreated: true,
        isInheritable: true,
      });
      expect(logs[1]!.metadata).to.deep.include({ action: 'grant', isInheritable: false, added: [role(writer, 'Writer')], removed: [] });
      expect(logs[1]!.metadata).to.not.have.property('membershipCreated');

      // Nothing new: no change, no log row.
      expect((await call(w, 'post', `/groups/${group.id}/roles`, { body: { tenantId: w.tenantA.id, roleIds: [writer.id] } })).status).to.equal(200);
      expect(await logsOf(w, group.id)).to.have.length(2);
    });

    it('lists the memberships with Global first as tenantId null, and shows them on the group', async () => {
      const group = await groupIn(w, w.areaA);
      await grant(w.context.dataSource, { tenant: w.tenantA, group, roles: [w.app.roleByName.Reader!], inheritable: false });
      await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, group, roles: [w.app.roleByName.Writer!] });
      const res = await call(w, 'get', `/groups/${group.id}/roles`, { as: 'tenantAdmin' });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        items: [
          { tenantId: null, tenantName: 'Global', isInheritable: true, roles: [{ roleId: w.app.roleByName.Writer!.id, roleName: 'Writer', applicationId: w.app.id, applicationName: w.app.name, applicationDisplayName: w.app.displayName }] },
          { tenantId: w.tenantA.id, tenantName: w.tenantA.title, isInheritable: false, roles: [{ roleId: w.app.roleByName.Reader!.id, roleName: 'Reader', applicationId: w.app.id, applicationName: w.app.name, applicationDisplayName: w.app.displayName }] },
        ],
        count: 2,
      });
      expect((await call(w, 'get', `/groups/${group.id}`)).body.tenants).to.deep.equal([
        { id: null, title: 'Global' },
        { id: w.tenantA.id, title: w.tenantA.title },
      ]);
    });

    it('offers the Global tenant (null or the all-zero id) to administrators only', async () => {
      const group = await groupIn(w, w.areaA);
      const roleIds = [w.app.roleByName.Reader!.id];
      const refused = await call(w, 'post', `/groups/${group.id}/roles`, { as: 'areaAdmin', body: { tenantId: null, roleIds }, lang: 'fr' });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.include({ code: 'groups.global_forbidden', message: 'Seuls les administrateurs peuvent utiliser l’entité Globale' });
      const zeros = await call(w, 'post', `/groups/${group.id}/roles`, { as: 'areaAdmin', body: { tenantId: GLOBAL_TENANT_ID, roleIds } });
      expect(zeros.status).to.equal(403);
      const admin = await call(w, 'post', `/groups/${group.id}/roles`, { body: { tenantId: GLOBAL_TENANT_ID, roleIds } });
      expect(admin.status).to.equal(201);
      expect(admin.body).to.include({ tenantId: null, tenantName: 'Global' });
      const [log] = await logsOf(w, group.id);
      expect(log).to.deep.include({ tenant_id: GLOBAL_TENANT_ID, tenant_name: 'Global' });
      const removeRefused = await call(w, 'delete', `/groups/${group.id}/roles/${GLOBAL_TENANT_ID}`, { as: 'areaAdmin' });
      expect(removeRefused.status).to.equal(403);
      expect(removeRefused.body.code).to.equal('groups.global_forbidden');
      expect((await call(w, 'delete', `/groups/${group.id}/roles/${GLOBAL_TENANT_ID}`, { as: 'god' })).status).to.equal(204);
    });

    it('names the field for a missing tenant, no roles, an unknown role or tenant (en, fr)', async () => {
      const group = await groupIn(w, w.areaA);
      const missing = await call(w, 'post', `/groups/${group.id}/roles`, { body: { roleIds: [] } });
      expect(missing.status).to.equal(400);
      expect(missing.body.errors).to.deep.equal([
        { field: 'tenantId', code: 'groups.tenant_required', message: 'Tenant required' },
        { field: 'roleIds', code: 'groups.roles_required', message: 'Select at least one role' },
      ]);
      const fr = await call(w, 'post', `/groups/${group.id}/roles`, { body: {}, lang: 'fr' });
      expect(fr.body.errors.map((e: { message: string }) => e.message)).to.deep.equal(['Entité obligatoire', 'Sélectionnez au moins un rôle']);
      const unknownRole = await call(w, 'post', `/groups/${group.id}/roles`, { body: { tenantId: w.tenantA.id, roleIds: [randomUUID()] } });
      expect(unknownRole.status).to.equal(400);
      expect(unknownRole.body.errors).to.deep.equal([{ field: 'roleIds', code: 'groups.role_not_found', message: 'Role not found or not available' }]);
      const unknownTenant = await call(w, 'post', `/groups/${group.id}/roles`, { body: { tenantId: randomUUID(), roleIds: [w.app.roleByName.Reader!.id] } });
      expect(unknownTenant.status).to.equal(400);
      expect(unknownTenant.body.errors[0]).to.include({ field: 'tenantId', code: 'groups.tenant_not_found' });
      expect(await w.context.dataSource.query(`SELECT id FROM tenant_members WHERE group_id = $1`, [group.id])).to.deep.equal([]);
    });

    it('keeps an AreaAdministrator to tenants of their areas and away from the Identity application’s roles', async () => {
      const group = await groupIn(w, w.areaA);
      const otherTenant = await call(w, 'post', `/groups/${group.id}/roles`, { as: 'areaAdmin', body: { tenantId: w.tenantB.id, roleIds: [w.app.roleByName.Reader!.id] } });
      expect(otherTenant.status).to.equal(400);
      expect(otherTenant.body.errors[0]).to.include({ field: 'tenantId', code: 'groups.tenant_not_found' });
      const escalation = await call(w, 'post', `/groups/${group.id}/roles`, {
        as: 'areaAdmin',
        body: { tenantId: w.tenantA.id, roleIds: [w.identity.roleByName.Administrator!.id] },
      });
      expect(escalation.status).to.equal(403);
      expect(escalation.body.code).to.equal('groups.identity_roles_forbidden');
      const god = await call(w, 'post', `/groups/${group.id}/roles`, { body: { tenantId: w.tenantA.id, roleIds: [w.identity.roleByName.God!.id] } });
      expect(god.status).to.equal(403);
      expect(god.body.code).to.equal('groups.god_role_forbidden');
      const ok = await call(w, 'post', `/groups/${group.id}/roles`, { as: 'areaAdmin', body: { tenantId: w.tenantA.id, roleIds: [w.app.roleByName.Reader!.id] } });
      expect(ok.status).to.equal(201);
      expect(await w.context.dataSource.query(`SELECT role_id FROM tenant_member_roles tmr JOIN tenant_members tm ON tm.id = tmr.tenant_member_id WHERE tm.group_id = $1`, [group.id])).to.deep.equal([
        { role_id: w.app.roleByName.Reader!.id },
      ]);
    });

    it('removes a membership with its roles (204), logs it, announces it; then 404', async () => {
      const group = await groupIn(w, w.areaA);
      const member = await userIn(w, w.areaA);
      await addMember(w, group, member);
      await grant(w.context.dataSource, { tenant: w.tenantA, group, roles: [w.app.roleByName.Reader!] });
      let status = 0;
      const heard = await announcedDuring(w, async () => (status = (await call(w, 'delete', `/groups/${group.id}/roles/${w.tenantA.id}`)).status));
      expect(status).to.equal(204);
      expect(heard).to.deep.equal([member.id]);
      expect((await call(w, 'get', `/groups/${group.id}/roles`)).body).to.deep.equal({ items: [], count: 0 });
      const [log] = await logsOf(w, group.id);
      expect(log).to.deep.include({ operation: 'Permission', tenant_id: w.tenantA.id, tenant_name: w.tenantA.title });
      expect(log!.metadata).to.deep.include({ action: 'revoke', via: 'groups', targetGroupId: group.id, membershipRemoved: true });
      expect((log!.metadata.removed as Array<{ roleName: string }>).map((r: { roleName: string }) => r.roleName)).to.deep.equal(['Reader']);
      const again = await call(w, 'delete', `/groups/${group.id}/roles/${w.tenantA.id}`);
      expect(again.status).to.equal(404);
      expect(again.body.code).to.equal('groups.membership_not_found');
    });

    it('refuses a TenantAdministrator any change', async () => {
      const group = await groupIn(w, w.areaA);
      await grant(w.context.dataSource, { tenant: w.tenantA, group, roles: [w.app.roleByName.Reader!] });
      expect((await call(w, 'post', `/groups/${group.id}/roles`, { as: 'tenantAdmin', body: { tenantId: w.tenantA.id, roleIds: [w.app.roleByName.Writer!.id] } })).status).to.equal(403);
      expect((await call(w, 'delete', `/groups/${group.id}/roles/${w.tenantA.id}`, { as: 'tenantAdmin' })).status).to.equal(403);
      expect((await call(w, 'get', `/groups/${group.id}/roles`)).body.items[0].roles).to.have.length(1);
    });
  });

  describe('the Users group (named Users, with a Global entry)', () => {
    let users: Group;

    beforeEach(async () => {
      // Names are unique per area: each test gets a Users group in an area of its own.
      const area = (await w.context.dataSource.query(`INSERT INTO areas (name) VALUES ($1) RETURNING id, name`, [`users-${randomUUID()}`]))[0];
      users = await groupIn(w, area, { name: 'USERS' });
      await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, group: users, roles: [w.app.roleByName.Reader!] });
    });

    it('is read-only for an Administrator: no edit, no tenant roles added or removed, no delete (403, localized)', async () => {
      const edit = await call(w, 'put', `/groups/${users.id}`, { body: { name: 'USERS', description: 'x', areaId: users.areaId } });
      expect(edit.status).to.equal(403);
      expect(edit.body).to.include({
        code: 'groups.users_group_locked',
        message: 'The Users group cannot be edited: no more tenant roles can be added to it',
      });
      const add = await call(w, 'post', `/groups/${users.id}/roles`, { body: { tenantId: w.tenantA.id, roleIds: [w.app.roleByName.Writer!.id] }, lang: 'fr' });
      expect(add.status).to.equal(403);
      expect(add.body.message).to.equal('Le groupe Users ne peut pas être modifié : aucun rôle d’entité ne peut plus lui être ajouté');
      expect((await call(w, 'delete', `/groups/${users.id}/roles/${GLOBAL_TENANT_ID}`)).status).to.equal(403);
      expect((await call(w, 'delete', `/groups/${users.id}`)).status).to.equal(403);
      expect((await groupById(users.id)).description).to.equal(null);
      expect((await call(w, 'get', `/groups/${users.id}/roles`)).body.count).to.equal(1);
      expect(await logsOf(w, users.id)).to.deep.equal([]);
    });

    it('keeps its members manageable', async () => {
      const user = await userIn(w, w.areaA);
      expect((await call(w, 'post', `/groups/${users.id}/users`, { body: { userId: user.id } })).status).to.equal(201);
      expect((await call(w, 'delete', `/groups/${users.id}/users/${user.id}`)).status).to.equal(204);
    });

    it('can still be changed by God', async () => {
      const edit = await call(w, 'put', `/groups/${users.id}`, { as: 'god', body: { name: 'Users', description: 'Everyone', areaId: users.areaId } });
      expect(edit.status, JSON.stringify(edit.body)).to.equal(200);
      expect(edit.body).to.include({ name: 'Users', description: 'Everyone' });
      const add = await call(w, 'post', `/groups/${users.id}/roles`, { as: 'god', body: { tenantId: w.tenantA.id, roleIds: [w.app.roleByName.Writer!.id] } });
      expect(add.status).to.equal(201);
    });

    it('is an ordinary group while it has no Global entry', async () => {
      await w.context.dataSource.query(`DELETE FROM tenant_members WHERE group_id = $1`, [users.id]);
      const edit = await call(w, 'put', `/groups/${users.id}`, { body: { name: 'Users', description: 'Not yet', areaId: users.areaId } });
      expect(edit.status).to.equal(200);
    });
  });
});
