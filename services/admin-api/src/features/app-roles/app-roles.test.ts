import { randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, resolveEffectiveRoles, type Role } from '@gatehouse/core';
import { buildApplication, buildGroup, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { buildAdminWorld, call, logsWhere, userIn, type AdminWorld, type Application } from '../../testing/admin-world.js';

const NAME_REQUIRED = 'Please input your API title!';
const SCOPE_REQUIRED = 'Please enter the scope!';
const INVALID_SCOPE = 'Only lowercase letters, numbers and . / : _ - are allowed';
const ROLE_NOT_FOUND = 'Role not found or not available for the selected application';

/** A role created through the API, as the factories take it. */
const asRole = (id: string) => ({ id }) as Role;

describe('application roles and role scopes admin API', () => {
  let w: AdminWorld;
  let app: Application;
  let other: Application;

  before(async () => {
    w = await buildAdminWorld();
    app = await buildApplication(w.context.dataSource, { roles: ['Reader', 'Writer', 'auditor'] });
    other = await buildApplication(w.context.dataSource, { roles: ['Reader'] });
  });

  const roles = (appId = app.id) => `/app/${encodeURIComponent(appId)}/roles`;
  const scopes = (roleId: string, appId = app.id) => `${roles(appId)}/${roleId}/scopes`;
  const roleRow = async (id: string) => (await w.context.dataSource.query(`SELECT * FROM roles WHERE id = $1`, [id]))[0];
  /** A role of its own for a test that changes or deletes it. */
  const freshRole = async (name = `Role ${randomUUID().slice(0, 8)}`, appId = app.id) => {
    const res = await call(w, 'post', roles(appId), { body: { name } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { id: string; name: string };
  };
  /** Records the `roles.changed` announcements made while `action` runs. */
  const announcedDuring = async (action: () => Promise<unknown>) => {
    const heard: Array<{ userId?: string }> = [];
    const off = w.context.broadcast.on('roles.changed', (payload) => heard.push(payload));
    try {
      await action();
    } finally {
      off();
    }
    return heard;
  };

  describe('GET app/{appId}/roles', () => {
    it('lists the application’s roles sorted by name ascending, with their flags, holders and scopes counts', async () => {
      const reader = app.roleByName.Reader!;
      await w.context.dataSource.query(`INSERT INTO role_scopes (role_id, scope) VALUES ($1, 'api.read'), ($1, 'api/list')`, [reader.id]);
      await grant(w.context.dataSource, { tenant: w.tenantA, user: await userIn(w, w.areaA), roles: [reader] });
      const res = await call(w, 'get', `${roles()}?top=50`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const expected = (await w.context.dataSource.query(`SELECT name FROM roles WHERE application_id = $1 ORDER BY name, id`, [app.id])).map((r: { name: string }) => r.name);
      expect(res.body.items.map((r: { name: string }) => r.name)).to.deep.equal(expected);
      expect(res.body.count).to.equal(expected.length);
      expect(res.body.items.find((r: { id: string }) => r.id === reader.id)).to.deep.equal({
        id: reader.id,
        applicationId: app.id,
        applicationName: app.displayName,
        name: 'Reader',
        description: null,
        byHierarchy: false,
        operationRequestVisibility: false,
        serviceManagerVisibility: false,
        holders: 1,
        scopesCount: 2,
        system: false,
      });
    });

    it('searches names and descriptions, pages, and sorts descending', async () => {
      const found = await call(w, 'get', `${roles()}?$search=writ`);
      expect(found.body).to.deep.include({ count: 1 });
      expect(found.body.items[0].name).to.equal('Writer');
      const page = await call(w, 'get', `${roles()}?orderBy=name%20desc&skip=1&top=1`);
      const all = (await call(w, 'get', `${roles()}?orderBy=name%20desc&top=50`)).body.items.map((r: { name: string }) => r.name);
      expect(page.body.items.map((r: { name: string }) => r.name)).to.deep.equal(all.slice(1, 2));
    });

    it('answers 404 "Application not found" for an unknown application', async () => {
      const res = await call(w, 'get', roles('no-such-app'));
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal('Application not found');
    });

    it('marks the Identity application’s own roles as system roles', async () => {
      const res = await call(w, 'get', `${roles(IDENTITY_APPLICATION_ID)}?top=50`);
      const god = res.body.items.find((r: { name: string }) => r.name === 'God');
      expect(god.system).to.equal(true);
    });

    it('is read by a TenantAdministrator, refused to a Manager and an AreaAdministrator', async () => {
      expect((await call(w, 'get', roles(), { as: 'tenantAdmin' })).status).to.equal(200);
      expect((await call(w, 'get', roles(), { as: 'manager' })).status).to.equal(403);
      expect((await call(w, 'get', roles(), { as: 'areaAdmin' })).status).to.equal(403);
    });
  });

  describe('POST app/{appId}/roles', () => {
    it('creates a role with its properties, trimmed, answers 201 and writes a system log row', async () => {
      const name = `Approver ${randomUUID().slice(0, 8)}`;
      const res = await call(w, 'post', roles(), {
        body: { name: `  ${name}  `, description: ' Approves requests ', byHierarchy: true, serviceManagerVisibility: true },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.deep.include({
        applicationId: app.id,
        name,
        description: 'Approves requests',
        byHierarchy: true,
        operationRequestVisibility: false,
        serviceManagerVisibility: true,
        holders: 0,
        scopesCount: 0,
        system: false,
      });
      expect(await roleRow(res.body.id)).to.include({ application_id: app.id, name, by_hierarchy: true });
      const [log] = await logsWhere(w, 'roleId', res.body.id);
      expect(log).to.deep.include({ operation: 'CreateRole', user_id: w.callers.admin.id });
      expect(log!.metadata).to.include({ applicationId: app.id, roleName: name, byHierarchy: true });
    });

    it('refuses a missing or blank name with the spec’s message, and a name over 200 characters', async () => {
      for (const body of [{}, { name: '   ' }, { name: null }]) {
        const res = await call(w, 'post', roles(), { body });
        expect(res.status).to.equal(400);
        expect(res.body.errors).to.deep.equal([{ field: 'name', code: 'appRoles.name_required', message: NAME_REQUIRED }]);
      }
      const long = await call(w, 'post', roles(), { body: { name: 'x'.repeat(201) } });
      expect(long.status).to.equal(400);
      expect(long.body.errors[0]).to.include({ field: 'name', code: 'validation.too_long' });
    });

    it('answers the spec’s message in the caller’s language', async () => {
      const res = await call(w, 'post', roles(), { body: {}, lang: 'fr' });
      expect(res.body.errors[0].message).to.equal('Veuillez saisir le titre de votre API !');
    });

    it('refuses a name the application already has, whatever its case, and accepts it in another application', async () => {
      for (const name of ['Reader', 'READER', ' reader ']) {
        const res = await call(w, 'post', roles(), { body: { name } });
        expect(res.status, name).to.equal(409);
        expect(res.body.errors).to.deep.equal([
          { field: 'name', code: 'errors.role_name_in_use', message: 'A role with this name already exists for this application' },
        ]);
      }
      const elsewhere = await call(w, 'post', roles(other.id), { body: { name: 'Writer' } });
      expect(elsewhere.status).to.equal(201);
    });

    it('answers 404 for an unknown application and 403 to every caller but an administrator', async () => {
      expect((await call(w, 'post', roles('no-such-app'), { body: { name: 'X' } })).status).to.equal(404);
      for (const as of ['tenantAdmin', 'manager', 'areaAdmin'] as const) {
        expect((await call(w, 'post', roles(), { as, body: { name: `By ${as}` } })).status, as).to.equal(403);
      }
      expect((await call(w, 'post', roles(), { as: 'god', body: { name: `By god ${randomUUID().slice(0, 8)}` } })).status).to.equal(201);
    });

    it('refuses fields the contract does not declare', async () => {
      const res = await call(w, 'post', roles(), { body: { name: 'Sneaky', applicationId: other.id } });
      expect(res.status).to.equal(400);
      expect(res.body.errors[0]).to.include({ code: 'validation.unknown_field' });
    });
  });

  describe('GET and PUT app/{appId}/roles/{roleId}', () => {
    it('reads a role; a role of another application, an unknown or a malformed id is the spec’s "not found"', async () => {
      const reader = app.roleByName.Reader!;
      const res = await call(w, 'get', `${roles()}/${reader.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: reader.id, name: 'Reader' });
      const foreign = await call(w, 'get', `${roles()}/${other.roleByName.Reader!.id}`);
      expect(foreign.status).to.equal(404);
      expect(foreign.body.message).to.equal(ROLE_NOT_FOUND);
      expect((await call(w, 'get', `${roles()}/${randomUUID()}`)).status).to.equal(404);
      expect((await call(w, 'get', `${roles()}/not-a-uuid`)).status).to.equal(404);
    });

    it('changes a role’s properties, logs the previous ones, and tells every node when a held role is renamed', async () => {
      const role = await freshRole();
      await grant(w.context.dataSource, { tenant: w.tenantB, user: await userIn(w, w.areaB), roles: [asRole(role.id)] });
      const renamed = `Renamed ${randomUUID().slice(0, 8)}`;
      let res: Awaited<ReturnType<typeof call>> | undefined;
      const heard = await announcedDuring(async () => {
        res = await call(w, 'put', `${roles()}/${role.id}`, { body: { name: renamed, description: 'Now described', operationRequestVisibility: true } });
      });
      expect(res!.status, JSON.stringify(res!.body)).to.equal(200);
      expect(res!.body).to.deep.include({ name: renamed, description: 'Now described', operationRequestVisibility: true, holders: 1 });
      expect(heard).to.deep.equal([{}]);
      const [log] = (await logsWhere(w, 'roleId', role.id)).filter((row) => row.operation === 'UpdateRole');
      expect(log!.metadata).to.deep.include({ roleName: renamed, previous: { roleName: role.name, description: null, byHierarchy: false, operationRequestVisibility: false, serviceManagerVisibility: false } });
      // The description alone changes nothing a token carries.
      expect(await announcedDuring(() => call(w, 'put', `${roles()}/${role.id}`, { body: { name: renamed, description: 'Again' } }))).to.deep.equal([]);
    });

    it('refuses another role’s name (any case) and a blank name, and changes nothing', async () => {
      const role = await freshRole();
      const taken = await call(w, 'put', `${roles()}/${role.id}`, { body: { name: 'writer' } });
      expect(taken.status).to.equal(409);
      expect(taken.body.errors[0]).to.include({ field: 'name', code: 'errors.role_name_in_use' });
      const blank = await call(w, 'put', `${roles()}/${role.id}`, { body: { name: '' } });
      expect(blank.body.errors).to.deep.equal([{ field: 'name', code: 'appRoles.name_required', message: NAME_REQUIRED }]);
      expect((await roleRow(role.id)).name).to.equal(role.name);
      // Its own name in another case is not "another role's".
      const recased = await call(w, 'put', `${roles()}/${role.id}`, { body: { name: role.name.toUpperCase() } });
      expect(recased.status).to.equal(200);
    });

    it('keeps the names of the Identity application’s own roles, while their descriptions may change', async () => {
      const administrator = w.identity.roleByName.Administrator!;
      const rename = await call(w, 'put', `${roles(IDENTITY_APPLICATION_ID)}/${administrator.id}`, { body: { name: 'Admins' } });
      expect(rename.status).to.equal(409);
      expect(rename.body.errors[0]).to.include({ field: 'name', code: 'appRoles.system_role' });
      expect(rename.body.message).to.equal('The role Administrator is one the product itself relies on: it cannot be renamed or deleted');
      const described = await call(w, 'put', `${roles(IDENTITY_APPLICATION_ID)}/${administrator.id}`, { body: { name: 'Administrator', description: 'Full administration' } });
      expect(described.status).to.equal(200);
      expect((await roleRow(administrator.id)).name).to.equal('Administrator');
    });

    it('is refused to a TenantAdministrator, and a role of another application is not found', async () => {
      const role = await freshRole();
      expect((await call(w, 'put', `${roles()}/${role.id}`, { as: 'tenantAdmin', body: { name: 'Mine' } })).status).to.equal(403);
      const foreign = await call(w, 'put', `${roles(other.id)}/${role.id}`, { body: { name: 'Moved' } });
      expect(foreign.status).to.equal(404);
      expect((await roleRow(role.id)).name).to.equal(role.name);
    });
  });

  describe('DELETE app/{appId}/roles/{roleId}', () => {
    it('deletes a held role with its scopes, takes it from every user and group holding it, logs how many held it and tells every node', async () => {
      const role = await freshRole();
      const db = w.context.dataSource;
      await db.query(`INSERT INTO role_scopes (role_id, scope) VALUES ($1, 'orders.read')`, [role.id]);
      const direct = await userIn(w, w.areaA);
      const throughGroup = await userIn(w, w.areaA);
      const group = await buildGroup(db, { areaId: w.areaA.id });
      await db.query(`INSERT INTO group_members (group_id, user_id) VALUES ($1, $2)`, [group.id, throughGroup.id]);
      await grant(db, { tenant: w.tenantA, user: direct, roles: [asRole(role.id), app.roleByName.Writer!] });
      await grant(db, { tenant: GLOBAL_TENANT_ID, group, roles: [asRole(role.id)] });
      expect((await call(w, 'get', `${roles()}/${role.id}`)).body.holders).to.equal(2);

      let status = 0;
      const heard = await announcedDuring(async () => {
        status = (await call(w, 'delete', `${roles()}/${role.id}`)).status;
      });
      expect(status).to.equal(204);
      expect(heard).to.deep.equal([{}]);
      expect(await roleRow(role.id)).to.equal(undefined);
      expect(await db.query(`SELECT 1 FROM role_scopes WHERE role_id = $1`, [role.id])).to.deep.equal([]);
      expect(await db.query(`SELECT 1 FROM tenant_member_roles WHERE role_id = $1`, [role.id])).to.deep.equal([]);
      // The memberships stay, with their other roles.
      const left = await resolveEffectiveRoles(db, direct.id, { applicationId: app.id });
      expect(left.map((r) => r.roleName)).to.deep.equal(['Writer']);
      expect(await resolveEffectiveRoles(db, throughGroup.id, { applicationId: app.id })).to.deep.equal([]);
      const [log] = await logsWhere(w, 'roleId', role.id).then((rows) => rows.filter((row) => row.operation === 'DeleteRole'));
      expect(log!.metadata).to.include({ applicationId: app.id, roleName: role.name, holders: 2, scopesCount: 1 });
    });

    it('deletes a role nobody holds without telling the nodes anything', async () => {
      const role = await freshRole();
      expect(await announcedDuring(() => call(w, 'delete', `${roles()}/${role.id}`))).to.deep.equal([]);
      expect(await roleRow(role.id)).to.equal(undefined);
    });

    it('refuses to delete the Identity application’s own roles, and leaves its other roles deletable', async () => {
      for (const name of ['God', 'Administrator', 'User']) {
        const res = await call(w, 'delete', `${roles(IDENTITY_APPLICATION_ID)}/${w.identity.roleByName[name]!.id}`);
        expect(res.status, name).to.equal(409);
        expect(res.body.code).to.equal('appRoles.system_role');
      }
      const extra = await freshRole('Auditor', IDENTITY_APPLICATION_ID);
      expect((await call(w, 'delete', `${roles(IDENTITY_APPLICATION_ID)}/${extra.id}`)).status).to.equal(204);
    });

    it('answers 404 for a role of another application and 403 to a TenantAdministrator, deleting nothing', async () => {
      const role = await freshRole();
      expect((await call(w, 'delete', `${roles(other.id)}/${role.id}`)).status).to.equal(404);
      expect((await call(w, 'delete', `${roles()}/${role.id}`, { as: 'tenantAdmin' })).status).to.equal(403);
      expect(await roleRow(role.id)).to.not.equal(undefined);
    });
  });

  describe('app/{appId}/roles/{roleId}/scopes', () => {
    it('creates scopes made of lowercase letters, numbers and . / : _ -, lists them sorted, and logs each', async () => {
      const role = await freshRole();
      for (const scope of ['orders:write', 'api.v2/orders_read-all', ' admin ']) {
        const res = await call(w, 'post', scopes(role.id), { body: { scope } });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        expect(res.body).to.include({ roleId: role.id, scope: scope.trim() });
      }
      const list = await call(w, 'get', scopes(role.id));
      expect(list.status).to.equal(200);
      expect(list.body.items.map((s: { scope: string }) => s.scope)).to.deep.equal(['admin', 'api.v2/orders_read-all', 'orders:write']);
      expect(list.body.count).to.equal(3);
      const logs = (await logsWhere(w, 'roleId', role.id)).filter((row) => row.operation === 'CreateRoleScope');
      expect(logs.map((row) => row.metadata.scope)).to.deep.equal(['orders:write', 'api.v2/orders_read-all', 'admin']);
      expect((await call(w, 'get', `${roles()}/${role.id}`)).body.scopesCount).to.equal(3);
    });

    it('refuses any other character with the rule’s message, and a missing scope with the spec’s', async () => {
      const role = await freshRole();
      for (const scope of ['Orders', 'orders read', 'orders#read', 'órdenes', 'a*', 'scope;drop']) {
        const res = await call(w, 'post', scopes(role.id), { body: { scope } });
        expect(res.status, scope).to.equal(400);
        expect(res.body.errors, scope).to.deep.equal([{ field: 'scope', code: 'validation.invalid_scope', message: INVALID_SCOPE }]);
      }
      for (const body of [{}, { scope: '  ' }]) {
        const res = await call(w, 'post', scopes(role.id), { body });
        expect(res.body.errors).to.deep.equal([{ field: 'scope', code: 'appRoles.scope_required', message: SCOPE_REQUIRED }]);
      }
      expect((await call(w, 'get', scopes(role.id))).body.count).to.equal(0);
    });

    it('refuses a scope the role already has, and accepts it on another role', async () => {
      const role = await freshRole();
      const second = await freshRole();
      expect((await call(w, 'post', scopes(role.id), { body: { scope: 'orders.read' } })).status).to.equal(201);
      const again = await call(w, 'post', scopes(role.id), { body: { scope: 'orders.read' } });
      expect(again.status).to.equal(409);
      expect(again.body.errors).to.deep.equal([{ field: 'scope', code: 'errors.scope_in_use', message: 'This scope already exists for this role' }]);
      expect((await call(w, 'post', scopes(second.id), { body: { scope: 'orders.read' } })).status).to.equal(201);
    });

    it('changes a scope under the same rules, logging the previous value', async () => {
      const role = await freshRole();
      const first = (await call(w, 'post', scopes(role.id), { body: { scope: 'orders.read' } })).body;
      await call(w, 'post', scopes(role.id), { body: { scope: 'orders.write' } });
      const res = await call(w, 'put', `${scopes(role.id)}/${first.id}`, { body: { scope: 'orders.list' } });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ id: first.id, roleId: role.id, scope: 'orders.list' });
      const [log] = (await logsWhere(w, 'scopeId', first.id)).filter((row) => row.operation === 'UpdateRoleScope');
      expect(log!.metadata).to.deep.include({ scope: 'orders.list', previous: { scope: 'orders.read' } });
      expect((await call(w, 'put', `${scopes(role.id)}/${first.id}`, { body: { scope: 'orders.write' } })).status).to.equal(409);
      expect((await call(w, 'put', `${scopes(role.id)}/${first.id}`, { body: { scope: 'Orders' } })).body.errors[0].code).to.equal('validation.invalid_scope');
    });

    it('deletes a scope; a scope of another role, a role of another application or an unknown id is not found', async () => {
      const role = await freshRole();
      const second = await freshRole();
      const scope = (await call(w, 'post', scopes(role.id), { body: { scope: 'orders.read' } })).body;
      expect((await call(w, 'delete', `${scopes(second.id)}/${scope.id}`)).status).to.equal(404);
      expect((await call(w, 'put', `${scopes(second.id)}/${scope.id}`, { body: { scope: 'x' } })).body.message).to.equal('This scope does not exist for this role');
      expect((await call(w, 'delete', `${scopes(role.id, other.id)}/${scope.id}`)).status).to.equal(404);
      expect((await call(w, 'get', scopes(role.id, other.id))).status).to.equal(404);
      expect((await call(w, 'delete', `${scopes(role.id)}/${randomUUID()}`)).status).to.equal(404);
      expect((await call(w, 'delete', `${scopes(role.id)}/${scope.id}`)).status).to.equal(204);
      expect((await call(w, 'get', scopes(role.id))).body).to.deep.equal({ items: [], count: 0 });
      const [log] = (await logsWhere(w, 'scopeId', scope.id)).filter((row) => row.operation === 'DeleteRoleScope');
      expect(log!.metadata).to.include({ roleId: role.id, scope: 'orders.read' });
    });

    it('is read by a TenantAdministrator but changed by administrators only', async () => {
      const role = await freshRole();
      expect((await call(w, 'get', scopes(role.id), { as: 'tenantAdmin' })).status).to.equal(200);
      expect((await call(w, 'post', scopes(role.id), { as: 'tenantAdmin', body: { scope: 'orders.read' } })).status).to.equal(403);
      expect((await call(w, 'post', scopes(role.id), { as: 'manager', body: { scope: 'orders.read' } })).status).to.equal(403);
      expect((await call(w, 'get', scopes(role.id))).body.count).to.equal(0);
    });
  });
});
