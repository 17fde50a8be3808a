import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, type Tenant } from '@gatehouse/core';
import { buildApplication, buildTenant, buildUser, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { buildAdminWorld, call, logsWhere, type AdminWorld, type Persona } from '../../testing/admin-world.js';
import { downloadJobFile, exportFile, firstSheet, jobCount, jobNotification, jobProgress, withBackgroundJobs } from '../../testing/exports.js';
import { queuedJob, whenJobStarts } from '../../testing/jobs.js';
import { mintAccessToken } from '../../testing/tokens.js';

const tag = () => `t${randomBytes(4).toString('hex')}`;

describe('tenants: the tree, its changes and its lists', function () {
  this.timeout(120_000);
  let w: AdminWorld;

  before(async () => {
    w = await buildAdminWorld();
  });

  const db = () => w.context.dataSource;
  /** A tenant of area A unless told. */
  const tenant = (overrides: Partial<Tenant> = {}) => buildTenant(db(), { areaId: w.areaA.id, ...overrides });
  const parentOf = async (id: string): Promise<string | null> => (await db().query(`SELECT parent_id FROM tenants WHERE id = $1`, [id]))[0].parent_id;
  const move = (id: string, newParentId: string | null, as: Persona = 'admin') => call(w, 'put', `/tenants/${id}/change-parent`, { as, body: { newParentId } });
  /** The tenants whose walk up the tree comes back to themselves: none, in a sound tree. */
  const cycles = async (): Promise<string[]> =>
    (
      await db().query(
        `WITH RECURSIVE walk(start, id, depth) AS (
           SELECT id, parent_id, 1 FROM tenants WHERE parent_id IS NOT NULL
           UNION ALL
           SELECT k.start, t.parent_id, k.depth + 1 FROM walk k JOIN tenants t ON t.id = k.id
            WHERE t.parent_id IS NOT NULL AND k.start <> k.id AND k.depth < 200
         )
         SELECT DISTINCT start FROM walk WHERE start = id`,
      )
    ).map((row: { start: string }) => row.start);
  /** Records the `roles.changed` announcements made while `action` runs. */
  const announced = async (action: () => Promise<unknown>) => {
    const heard: Array<{ userId?: string }> = [];
    const off = w.context.broadcast.on('roles.changed', (payload) => heard.push(payload));
    try {
      await action();
    } finally {
      off();
    }
    return heard;
  };

  describe('POST /tenants', () => {
    it('creates a Manual, not customised tenant under a parent (201), recorded in the system log', async () => {
      const parent = await tenant();
      const title = `Child ${tag()}`;
      const res = await call(w, 'post', '/tenants', { as: 'manager', body: { title: `  ${title} `, areaId: w.areaA.id, parentId: parent.id, taxNumber: 'B123', viesNumber: ' ' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({
        title,
        areaId: w.areaA.id,
        areaName: w.areaA.name,
        parentId: parent.id,
        parentTitle: parent.title,
        taxNumber: 'B123',
        viesNumber: null,
        groupAlias: null,
        auto: 'Manual',
        isUserCustomized: false,
        requiredTwoModeAuthentification: false,
        childrenCount: 0,
      });
      const [row] = await db().query(`SELECT parent_id, creation_type, is_user_customized, modified_by_id FROM tenants WHERE id = $1`, [res.body.id]);
      expect(row).to.deep.equal({ parent_id: parent.id, creation_type: 'Manual', is_user_customized: false, modified_by_id: w.callers.manager.id });
      const logs = await db().query(`SELECT operation, user_id, tenant_name FROM system_logs WHERE tenant_id = $1`, [res.body.id]);
      expect(logs).to.deep.equal([{ operation: 'CreateTenant', user_id: w.callers.manager.id, tenant_name: title }]);
      const listed = await call(w, 'get', `/tenants?$search=${encodeURIComponent(parent.title)}`);
      expect(listed.body.items.find((t: { id: string }) => t.id === parent.id).childrenCount).to.equal(1);
    });

    it('creates a root tenant when no parent is given', async () => {
      const res = await call(w, 'post', '/tenants', { body: { title: `Root ${tag()}`, areaId: w.areaB.id } });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ parentId: null, parentTitle: null, areaId: w.areaB.id });
    });

    it('answers 400 naming parentId for a parent that does not exist, or for the Global tenant', async () => {
      for (const parentId of [randomUUID(), GLOBAL_TENANT_ID]) {
        const title = `Orphan ${tag()}`;
        const res = await call(w, 'post', '/tenants', { body: { title, areaId: w.areaA.id, parentId } });
        expect(res.status).to.equal(400);
        expect(res.body).to.include({ code: 'tenants.parent_not_found', message: 'The parent tenant does not exist' });
        expect(res.body.errors[0]).to.include({ field: 'parentId' });
        expect(await db().query(`SELECT id FROM tenants WHERE title = $1`, [title])).to.deep.equal([]);
      }
    });

    it('answers 400 for an area that does not exist', async () => {
      const res = await call(w, 'post', '/tenants', { body: { title: `Nowhere ${tag()}`, areaId: randomUUID() } });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'tenants.area_not_found' });
      expect(res.body.errors[0].field).to.equal('areaId');
    });

    it('says "Please enter a title" and "Area is required" when they are missing or blank', async () => {
      for (const body of [{}, { title: '   ', areaId: '' }]) {
        const res = await call(w, 'post', '/tenants', { body });
        expect(res.status).to.equal(400);
        expect(res.body.errors).to.deep.include({ field: 'title', code: 'tenants.title_required', message: 'Please enter a title' });
        expect(res.body.errors).to.deep.include({ field: 'areaId', code: 'tenants.area_required', message: 'Area is required' });
      }
    });

    it('answers 400 naming an unknown field', async () => {
      const res = await call(w, 'post', '/tenants', { body: { title: 'X', areaId: w.areaA.id, auto: 'Auto' } });
      expect(res.status).to.equal(400);
      expect(res.body.errors[0]).to.include({ field: 'auto', code: 'validation.unknown_field' });
    });

    it('answers the messages in the caller’s language', async () => {
      const res = await call(w, 'post', '/tenants', { body: { areaId: w.areaA.id }, lang: 'fr' });
      expect(res.body.errors[0]).to.include({ field: 'title', message: 'Veuillez saisir un titre' });
    });
  });

  describe('PUT /tenants/{tenantId}/change-parent', () => {
    it('moves a subtree under another parent: the descendants follow, the move is logged and every cached role dropped', async () => {
      const [r1, r2] = [await tenant(), await tenant()];
      const a = await tenant({ parentId: r1.id });
      const b = await tenant({ parentId: a.id });
      let res!: request.Response;
      const heard = await announced(async () => {
        res = await move(a.id, r2.id, 'manager');
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ id: a.id, parentId: r2.id, parentTitle: r2.title, isUserCustomized: true });
      expect(heard).to.deep.equal([{}]);
      const got = await call(w, 'get', `/tenants/${b.id}?includeHierarchy=true`);
      expect(got.body.hierarchyItems).to.deep.equal([
        { id: r2.id, title: r2.title, order: 0 },
        { id: a.id, title: a.title, order: 1 },
      ]);
      const logs = await logsWhere(w, 'newParentId', r2.id);
      expect(logs).to.have.length(1);
      expect(logs[0]).to.include({ operation: 'MoveTenant', tenant_id: a.id, user_id: w.callers.manager.id });
      expect(logs[0]!.metadata).to.deep.equal({ previousParentId: r1.id, previousParentTitle: r1.title, newParentId: r2.id, newParentTitle: r2.title });
    });

    it('moves a tenant to the top with a null parent', async () => {
      const root = await tenant();
      const child = await tenant({ parentId: root.id });
      const res = await move(child.id, null);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ parentId: null, parentTitle: null });
      expect(await parentOf(child.id)).to.equal(null);
    });

    it('refuses to move a tenant under itself, its child or a deep descendant (409), changing nothing', async () => {
      const root = await tenant();
      const a = await tenant({ parentId: root.id });
      const child = await tenant({ parentId: a.id });
      const deep = await tenant({ parentId: (await tenant({ parentId: (await tenant({ parentId: child.id })).id })).id });
      for (const target of [a, child, deep]) {
        const heard = await announced(async () => {
          const res = await move(a.id, target.id);
          expect(res.status).to.equal(409);
          expect(res.body).to.include({ code: 'tenants.cycle', message: 'A tenant cannot be moved under itself or one of its descendants' });
          expect(res.body.errors[0].field).to.equal('newParentId');
        });
        expect(heard).to.deep.equal([]);
        expect(await parentOf(a.id)).to.equal(root.id);
      }
      expect(await cycles()).to.deep.equal([]);
    });

    it('answers 400 for a new parent that does not exist, and for the Global tenant as a parent', async () => {
      const a = await tenant();
      for (const newParentId of [randomUUID(), GLOBAL_TENANT_ID]) {
        const res = await move(a.id, newParentId);
        expect(res.status).to.equal(400);
        expect(res.body).to.include({ code: 'tenants.parent_not_found' });
      }
      expect(await parentOf(a.id)).to.equal(null);
    });

    it('asks for the new parent when newParentId is missing', async () => {
      const res = await call(w, 'put', `/tenants/${(await tenant()).id}/change-parent`, { body: {} });
      expect(res.status).to.equal(400);
      expect(res.body.errors).to.deep.equal([
        { field: 'newParentId', code: 'tenants.parent_required', message: 'Choose the new parent, or null to make the tenant a root' },
      ]);
    });

    it('runs two opposite moves one after the other: exactly one succeeds and no cycle is left', async () => {
      for (let round = 0; round < 5; round++) {
        const [a, b] = [await tenant(), await tenant()];
        const results = await Promise.all([move(a.id, b.id), move(b.id, a.id)]);
        expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
        const parents = [await parentOf(a.id), await parentOf(b.id)];
        expect(parents.filter((p) => p !== null)).to.have.length(1);
      }
      // A three-way ring at once: A under B, B under C, C under A.
      const [a, b, c] = [await tenant(), await tenant(), await tenant()];
      const results = await Promise.all([move(a.id, b.id), move(b.id, c.id), move(c.id, a.id)]);
      expect(results.filter((r) => r.status === 409)).to.have.length.of.at.least(1);
      expect(results.every((r) => r.status === 200 || r.status === 409)).to.equal(true);
      expect(await cycles()).to.deep.equal([]);
    });

    it('answers the tenant unchanged, without a log row, when it already is under that parent', async () => {
      const root = await tenant();
      const child = await tenant({ parentId: root.id });
      const res = await move(child.id, root.id);
      expect(res.status).to.equal(200);
      expect(await logsWhere(w, 'newParentId', root.id)).to.deep.equal([]);
    });
  });

  describe('the Global tenant', () => {
    it('cannot be changed, moved or deleted (409)', async () => {
      const other = await tenant();
      const calls = [
        await call(w, 'put', `/tenants/${GLOBAL_TENANT_ID}`, { body: { title: 'Renamed', areaId: w.areaA.id } }),
        await call(w, 'delete', `/tenants/${GLOBAL_TENANT_ID}`),
        await move(GLOBAL_TENANT_ID, other.id),
      ];
      for (const res of calls) {
        expect(res.status).to.equal(409);
        expect(res.body).to.include({ code: 'tenants.global_readonly', message: 'The Global tenant cannot be changed, moved or deleted' });
      }
      const [row] = await db().query(`SELECT title, parent_id FROM tenants WHERE id = $1`, [GLOBAL_TENANT_ID]);
      expect(row).to.deep.equal({ title: 'Global', parent_id: null });
    });

    it('is never listed', async () => {
      const res = await call(w, 'get', '/tenants?$search=Global&top=10000');
      expect(res.body.items.map((t: { id: string }) => t.id)).to.not.include(GLOBAL_TENANT_ID);
    });
  });

  describe('PUT /tenants/{id}', () => {
    it('changes the general properties and marks the tenant customised by a user', async () => {
      const t = await tenant({ taxNumber: 'OLD' });
      const title = `Renamed ${tag()}`;
      const res = await call(w, 'put', `/tenants/${t.id}`, {
        as: 'manager',
        body: { title, areaId: w.areaB.id, taxNumber: 'B987', viesNumber: 'ESB987', groupAlias: 'Alias' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ title, areaId: w.areaB.id, taxNumber: 'B987', viesNumber: 'ESB987', groupAlias: 'Alias', isUserCustomized: true });
      const [log] = await db().query(`SELECT operation, metadata FROM system_logs WHERE tenant_id = $1`, [t.id]);
      expect(log.operation).to.equal('UpdateTenant');
      expect(log.metadata.previous).to.include({ title: t.title, areaId: w.areaA.id, taxNumber: 'OLD' });
    });

    it('answers 404 for a tenant that does not exist and for malformed ids', async () => {
      for (const id of [randomUUID(), 'not-a-uuid', "'; DROP TABLE tenants; --"]) {
        const res = await call(w, 'put', `/tenants/${encodeURIComponent(id)}`, { body: { title: 'X', areaId: w.areaA.id } });
        expect(res.status).to.equal(404);
      }
    });
  });

  describe('DELETE /tenants/{id}', () => {
    it('refuses to delete a tenant with children (409, counted)', async () => {
      const one = await tenant();
      await tenant({ parentId: one.id });
      const res = await call(w, 'delete', `/tenants/${one.id}`);
      expect(res.status).to.equal(409);
      expect(res.body).to.include({ code: 'tenants.has_children', message: 'This tenant has 1 child tenant: move or delete it first' });
      const two = await tenant();
      await tenant({ parentId: two.id });
      await tenant({ parentId: two.id });
      const res2 = await call(w, 'delete', `/tenants/${two.id}`, { as: 'manager' });
      expect(res2.body.message).to.equal('This tenant has 2 child tenants: move or delete them first');
      expect(await db().query(`SELECT id FROM tenants WHERE id = ANY($1::uuid[])`, [[one.id, two.id]])).to.have.length(2);
    });

    it('deletes a leaf with its memberships, logs it, and drops the cached roles', async () => {
      const app = await buildApplication(db(), { roles: ['Reader'] });
      const t = await tenant();
      const member = await buildUser(db(), { areaId: w.areaA.id });
      await grant(db(), { tenant: t, user: member, roles: [app.roleByName.Reader!] });
      let res!: request.Response;
      const heard = await announced(async () => {
        res = await call(w, 'delete', `/tenants/${t.id}`, { as: 'manager' });
      });
      expect(res.status).to.equal(204);
      expect(heard).to.deep.equal([{}]);
      expect(await db().query(`SELECT id FROM tenants WHERE id = $1`, [t.id])).to.deep.equal([]);
      expect(await db().query(`SELECT id FROM tenant_members WHERE tenant_id = $1`, [t.id])).to.deep.equal([]);
      const [log] = await db().query(`SELECT operation, tenant_name, metadata FROM system_logs WHERE tenant_id = $1`, [t.id]);
      expect(log).to.deep.include({ operation: 'DeleteTenant', tenant_name: t.title });
      expect(log.metadata.membershipsCount).to.equal(1);
    });

    it('answers 404 for a tenant that does not exist', async () => {
      const res = await call(w, 'delete', `/tenants/${randomUUID()}`);
      expect(res.status).to.equal(404);
    });
  });

  describe('GET /tenants/{id} and the hierarchy tree', () => {
    it('answers the tenant with its ancestors and the whole tree from its root, children by title', async () => {
      const root = await tenant({ title: `Root ${tag()}` });
      const b = await tenant({ title: `B ${tag()}`, parentId: root.id });
      const a = await tenant({ title: `A ${tag()}`, parentId: root.id });
      const leaf = await tenant({ title: `Leaf ${tag()}`, parentId: b.id });
      const res = await call(w, 'get', `/tenants/${leaf.id}?includeHierarchy=true&includeHierarchyTree=true`);
      expect(res.status).to.equal(200);
      expect(res.body.hierarchyItems).to.deep.equal([
        { id: root.id, title: root.title, order: 0 },
        { id: b.id, title: b.title, order: 1 },
      ]);
      const node = (t: Tenant, children: unknown[] = []) => ({ id: t.id, title: t.title, areaId: t.areaId, children });
      const tree = node(root, [node(a), node(b, [node(leaf)])]);
      expect(res.body.tree).to.deep.equal(tree);
      const direct = await call(w, 'get', `/tenants/${a.id}/hierarchy-tree`);
      expect(direct.status).to.equal(200);
      expect(direct.body).to.deep.equal(tree);
      const plain = await call(w, 'get', `/tenants/${leaf.id}`);
      expect(plain.body).to.not.have.any.keys('tree', 'hierarchyItems');
    });

    it('answers 404 for malformed and unknown ids', async () => {
      for (const path of ['/tenants/nope', `/tenants/${randomUUID()}`, '/tenants/123/hierarchy-tree', `/tenants/${randomUUID()}/hierarchy-tree`]) {
        const res = await call(w, 'get', path);
        expect(res.status, path).to.equal(404);
        expect(res.body.code).to.equal('errors.not_found');
      }
    });
  });

  describe('GET /tenants', () => {
    it('filters by area, customised, creation type and parent, and searches titles', async () => {
      const t = tag();
      const parent = await tenant({ title: `${t} parent` });
      const manual = await tenant({ title: `${t} manual`, parentId: parent.id });
      const auto = await tenant({ title: `${t} auto`, creationType: 'Auto', isUserCustomized: true, areaId: w.areaB.id });
      const ids = async (query: string) => (await call(w, 'get', `/tenants?$search=${t}&${query}`)).body.items.map((x: { id: string }) => x.id).sort();
      expect(await ids('')).to.deep.equal([parent.id, manual.id, auto.id].sort());
      expect(await ids(`area=${w.areaB.id}`)).to.deep.equal([auto.id]);
      expect(await ids('isUserCustomized=true')).to.deep.equal([auto.id]);
      expect(await ids('isUserCustomized=false')).to.deep.equal([parent.id, manual.id].sort());
      expect(await ids('creation=Auto')).to.deep.equal([auto.id]);
      expect(await ids('creation=Manual')).to.deep.equal([parent.id, manual.id].sort());
      expect(await ids(`parent=${parent.id}`)).to.deep.equal([manual.id]);
    });

    it('sorts by parent title and by children count, and adds the ancestors on demand', async () => {
      const t = tag();
      const z = await tenant({ title: `${t} z` });
      const y = await tenant({ title: `${t} y` });
      const under = await tenant({ title: `${t} a`, parentId: z.id });
      await tenant({ title: `${t} b`, parentId: z.id });
      await tenant({ title: `${t} c`, parentId: y.id });
      const titles = async (orderBy: string) =>
        (await call(w, 'get', `/tenants?$search=${t}&orderBy=${encodeURIComponent(orderBy)}`)).body.items.map((x: { title: string }) => x.title);
      expect((await titles('childrenCount desc')).slice(0, 2)).to.deep.equal([`${t} z`, `${t} y`]);
      const byParent = await titles('parentTitle asc');
      expect(byParent[0]).to.equal(`${t} c`);
      expect(byParent.slice(1, 3).sort()).to.deep.equal([`${t} a`, `${t} b`]);
      const res = await call(w, 'get', `/tenants?$search=${encodeURIComponent(under.title)}&includeHierarchy=true`);
      expect(res.body.items[0].hierarchyItems).to.deep.equal([{ id: z.id, title: z.title, order: 0 }]);
    });

    it('serves pickers up to 10000 a page, refusing more', async () => {
      expect((await call(w, 'get', '/tenants?top=10000')).status).to.equal(200);
      const res = await call(w, 'get', '/tenants?top=10001');
      expect(res.status).to.equal(400);
      expect(res.body.errors[0].field).to.equal('top');
    });

    it('answers 400 naming a filter or sort it does not know', async () => {
      for (const query of ['creation=Sometimes', 'isUserCustomized=maybe', 'orderBy=secret%20asc', 'area=nope']) {
        const res = await call(w, 'get', `/tenants?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.errors[0].field).to.equal(query.split('=')[0]);
      }
    });
  });

  describe('roles and areas', () => {
    withBackgroundJobs(() => w);

    it('shows an AreaAdministrator the tenants of their area only: others are 404', async () => {
      const t = tag();
      const mine = await tenant({ title: `${t} mine` });
      const theirs = await tenant({ title: `${t} theirs`, areaId: w.areaB.id });
      const list = await call(w, 'get', `/tenants?$search=${t}`, { as: 'areaAdmin' });
      expect(list.status).to.equal(200);
      expect(list.body.items.map((x: { id: string }) => x.id)).to.deep.equal([mine.id]);
      expect(list.body.count).to.equal(1);
      expect((await call(w, 'get', `/tenants/${mine.id}`, { as: 'areaAdmin' })).status).to.equal(200);
      expect((await call(w, 'get', `/tenants/${theirs.id}`, { as: 'areaAdmin' })).status).to.equal(404);
      expect((await call(w, 'get', `/tenants/${theirs.id}/hierarchy-tree`, { as: 'areaAdmin' })).status).to.equal(404);
      const other = await call(w, 'get', `/tenants/export?$search=${t}`, { as: 'areaAdmin' });
      expect(other.status).to.equal(202);
    });

    it('lets a Manager create and move tenants, but not list their members', async () => {
      const created = await call(w, 'post', '/tenants', { as: 'manager', body: { title: `By manager ${tag()}`, areaId: w.areaA.id } });
      expect(created.status).to.equal(201);
      const parent = await tenant();
      expect((await move(created.body.id, parent.id, 'manager')).status).to.equal(200);
      const members = await call(w, 'get', `/tenants/${parent.id}/members`, { as: 'manager' });
      expect(members.status).to.equal(403);
      expect(members.body.message).to.equal('You do not have permission to perform this action');
    });

    it('refuses every tenant endpoint to a caller whose roles are not listed (403), changing nothing', async () => {
      const t = await tenant();
      const plain = await buildUser(db(), { areaId: w.areaA.id });
      const token = await mintAccessToken(w.context, w.key, { sub: plain.id, roles: ['User'] });
      const calls: Array<['get' | 'post' | 'put' | 'delete', string, object?]> = [
        ['get', '/tenants'],
        ['get', '/tenants/export'],
        ['post', '/tenants', { title: 'X', areaId: w.areaA.id }],
        ['get', `/tenants/${t.id}`],
        ['get', `/tenants/${t.id}/hierarchy-tree`],
        ['put', `/tenants/${t.id}`, { title: 'X', areaId: w.areaA.id }],
        ['delete', `/tenants/${t.id}`],
        ['put', `/tenants/${t.id}/change-parent`, { newParentId: null }],
        ['get', `/tenants/${t.id}/members`],
        ['get', `/tenants/${t.id}/members/export`],
        ['post', `/tenants/${t.id}/members`, { identityType: 'User', identityId: plain.id, roleIds: [randomUUID()] }],
        ['get', `/tenants/members/identity?identityId=${plain.id}&tenantId=${t.id}`],
        ['post', '/tenants/members/revokeAccess', { tenantId: t.id, userId: plain.id, applicationIds: ['x'] }],
      ];
      for (const [method, path, body] of calls) {
        let req = request(w.server)[method](`/api/v1/admin${path}`).set('Authorization', `Bearer ${token}`);
        if (body) req = req.send(body);
        const res = await req;
        expect(res.status, `${method} ${path}`).to.equal(403);
      }
      expect(await db().query(`SELECT id FROM tenants WHERE id = $1`, [t.id])).to.have.length(1);
    });
  });

  describe('GET /tenants/export', () => {
    withBackgroundJobs(() => w);


    it('exports the filtered tenants to Tenants.xlsx in a background job, with translated headers and each tenant’s ancestors', async () => {
      const t = tag();
      const root = await tenant({ title: `${t} root`, taxNumber: 'B1' });
      await tenant({ title: `${t} child`, parentId: root.id, creationType: 'Auto' });
      await tenant({ title: `${t} other`, areaId: w.areaB.id });
      const { job, file } = await exportFile(w, `/tenants/export?$search=${t}&area=${w.areaA.id}&orderBy=title%20desc`);
      expect(job).to.include({ type: 'ExportTenants', userId: w.callers.admin.id });
      expect(job.result).to.deep.include({ rows: 2 });
      expect(await jobProgress(w, job.id)).to.deep.equal({ progress: 2, total: 2 });
      expect(file.headers['content-type']).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(file.headers['content-disposition']).to.contain('Tenants.xlsx');
      const { name, rows } = await firstSheet(file.body as Buffer);
      expect(name).to.equal('Tenants');
      expect(rows[0]).to.deep.equal(['Title', 'Area', 'Parent', 'Hierarchy', 'CIF', 'European VAT', 'Group alias', 'Creation', 'Customised', 'MFA required', 'Children', 'Modified on (UTC)']);
      expect(rows.slice(1).map((r) => r.slice(0, 11))).to.deep.equal([
        [`${t} root`, w.areaA.name, undefined, undefined, 'B1', undefined, undefined, 'Manual', 'No', 'No', 1],
        [`${t} child`, w.areaA.name, root.title, root.title, undefined, undefined, undefined, 'Automatic', 'No', 'No', 0],
      ]);
      expect(rows[1]![11]).to.be.instanceOf(Date);
    });

    it('writes every tenant of a selection larger than a page, once, in the list’s order', async () => {
      const t = tag();
      await db().query(
        `INSERT INTO tenants (title, area_id, creation_type, modified_on)
         SELECT $1 || ' ' || lpad(i::text, 4, '0'), $2, 'Manual', now() FROM generate_series(1, 1203) AS i`,
        [t, w.areaA.id],
      );
      const { job, file } = await exportFile(w, `/tenants/export?$search=${t}&orderBy=title%20desc`);
      expect(await jobProgress(w, job.id)).to.deep.equal({ progress: 1203, total: 1203 });
      const { rows } = await firstSheet(file.body as Buffer);
      const titles = rows.slice(1).map((r) => r[0]);
      expect(titles).to.have.length(1203);
      expect(titles[0]).to.equal(`${t} 1203`);
      expect(titles[1202]).to.equal(`${t} 0001`);
      expect(new Set(titles).size).to.equal(1203);
    });

    it('writes the headers in the caller’s language', async () => {
      const { file } = await exportFile(w, '/tenants/export?$search=zz-none', { lang: 'fr' });
      const { name, rows } = await firstSheet(file.body as Buffer);
      expect(name).to.equal('Entités');
      expect(rows).to.have.length(1);
      expect(rows[0]!.slice(0, 3)).to.deep.equal(['Titre', 'Zone', 'Parent']);
    });

    it('writes the values in the caller’s language too: creation and yes/no', async () => {
      const t = tag();
      await tenant({ title: `${t} auto`, creationType: 'Auto' });
      const de = await firstSheet((await exportFile(w, `/tenants/export?$search=${t}`, { lang: 'de' })).file.body as Buffer);
      expect(de.rows[0]!.slice(7, 10)).to.deep.equal(['Erstellung', 'Angepasst', 'MFA erforderlich']);
      expect(de.rows[1]!.slice(7, 10)).to.deep.equal(['Automatisch', 'Nein', 'Nein']);
      const en = await firstSheet((await exportFile(w, `/tenants/export?$search=${t}`, { lang: 'en' })).file.body as Buffer);
      expect(en.rows[1]!.slice(7, 10)).to.deep.equal(['Automatic', 'No', 'No']);
    });

    it('exports only the area administrator’s areas', async () => {
      const t = tag();
      await tenant({ title: `${t} mine` });
      await tenant({ title: `${t} theirs`, areaId: w.areaB.id });
      const { rows } = await firstSheet((await exportFile(w, `/tenants/export?$search=${t}`, { as: 'areaAdmin' })).file.body as Buffer);
      expect(rows.slice(1).map((r) => r[0])).to.deep.equal([`${t} mine`]);
      // Asking for the other area's tenants by filter finds none either.
      const filtered = await firstSheet((await exportFile(w, `/tenants/export?$search=${t}&area=${w.areaB.id}`, { as: 'areaAdmin' })).file.body as Buffer);
      expect(filtered.rows).to.have.length(1);
    });

    it('reaches the areas the area administrator holds when the job runs, not when it was asked for', async () => {
      const t = tag();
      await tenant({ title: `${t} in A` });
      await tenant({ title: `${t} in B`, areaId: w.areaB.id });
      const moved = await buildUser(db(), { areaId: w.areaA.id });
      await grant(db(), { tenant: w.tenantA, user: moved, roles: [w.identity.roleByName.AreaAdministrator!] });
      // Between the request and its job, the role moves from tenant A to tenant B.
      const undo = await whenJobStarts(w.context, moved.id, { statement: `UPDATE tenant_members SET tenant_id = '${w.tenantB.id}' WHERE user_id = '${moved.id}';` });
      try {
        const { rows } = await firstSheet((await exportFile(w, `/tenants/export?$search=${t}`, { as: 'areaAdmin', user: moved })).file.body as Buffer);
        expect(rows.slice(1).map((r) => r[0])).to.deep.equal([`${t} in B`]);
      } finally {
        await undo();
      }
    });

    it('notifies the requester with the file, which nobody else may download (404)', async () => {
      const job = await queuedJob(w.context, await call(w, 'get', '/tenants/export?$search=zz-none', { lang: 'es' }));
      const fileUrl = job.result!.fileUrl as string;
      const notification = await jobNotification(w, w.callers.admin.id, 'ExportTenants', (n) => n.data.fileUrl === fileUrl);
      expect(notification.data).to.deep.equal({ success: true, fileUrl });
      // In the language of the console that asked (Spanish), not the profile's (French by default).
      expect(notification.description).to.equal('Su exportación de las entidades está lista');
      expect((await downloadJobFile(w, fileUrl)).status).to.equal(200);
      const theirs = await downloadJobFile(w, fileUrl, 'god');
      expect(theirs.status).to.equal(404);
      expect(JSON.parse(theirs.body.toString()).code).to.equal('errors.file_not_found');
    });

    it('refuses a filter it does not know with a 400 at once, queuing nothing', async () => {
      const before = await jobCount(w);
      for (const query of ['creation=Sometimes', 'orderBy=secret%20asc', 'area=nope']) {
        const res = await call(w, 'get', `/tenants/export?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.errors[0].field).to.equal(query.split('=')[0]);
      }
      expect(await jobCount(w)).to.equal(before);
    });

    it('fails the job of a requester who lost the role before it ran, leaving no file', async () => {
      const former = await buildUser(db(), { areaId: w.areaA.id });
      await grant(db(), { tenant: w.tenantA, user: former, roles: [w.identity.roleByName.AreaAdministrator!] });
      const undo = await whenJobStarts(w.context, former.id, { statement: `DELETE FROM tenant_members WHERE user_id = '${former.id}';` });
      try {
        const job = await queuedJob(w.context, await call(w, 'get', '/tenants/export', { as: 'areaAdmin', user: former }));
        expect(job.status).to.equal('Failed');
        expect(job.error).to.equal('You do not have permission to perform this action');
      } finally {
        await undo();
      }
      expect(await db().query(`SELECT id FROM stored_files WHERE owner_id = $1`, [former.id])).to.deep.equal([]);
      const notification = await jobNotification(w, former.id, 'ExportTenants');
      expect(notification.data).to.deep.include({ success: false, messageError: 'You do not have permission to perform this action' });
    });
  });
});
