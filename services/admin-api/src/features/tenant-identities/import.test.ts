import { randomBytes, randomUUID } from 'node:crypto';
import { buildApplication, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import request from 'supertest';
import {
  GLOBAL_TENANT_ID,
  addMember,
  announcedDuring,
  bearer,
  binary,
  buildIdentitiesWorld,
  callWithRoles,
  groupIn,
  groupRolesOf,
  holds,
  ownRolesOf,
  systemLogs,
  userIn,
  xlsx,
  type IdentitiesWorld,
  type Persona,
} from './testing.js';
import { jobNotification, withBackgroundJobs } from '../../testing/exports.js';
import { importResult, queuedJob, whenJobStarts } from '../../testing/jobs.js';

const USERS_HEADER = ['UserName or Email', 'Tenant', 'Application', 'Role', 'Inheritable'];
const GROUPS_HEADER = ['Group', 'Tenant', 'Application', 'Role', 'Inheritable'];

describe('Permissions page imports (tenantIdentities templates and bulk inserts)', () => {
  let w: IdentitiesWorld;

  before(async () => {
    w = await buildIdentitiesWorld();
    // The imports run in the background with the roles the requester holds then, not their token's.
    await grant(w.context.dataSource, { tenant: w.tenantA, user: w.callers.manager, roles: [w.identity.roleByName.Manager!] });
  });

  const upload = async (kind: 'users' | 'groups', file: Buffer, options: { as?: Persona; name?: string; lang?: string } = {}) =>
    request(w.server)
      .post(`/api/v1/admin/tenantIdentities/bulk_insert/${kind}`)
      .set('Authorization', await bearer(w, options.as))
      .set('Accept-Language', options.lang ?? 'en')
      .attach('file', file, options.name ?? 'roles.xlsx');

  const template = async (kind: 'users' | 'groups', options: { as?: Persona; lang?: string } = {}) =>
    request(w.server)
      .get(`/api/v1/admin/tenantIdentities/template/${kind}`)
      .set('Authorization', await bearer(w, options.as))
      .set('Accept-Language', options.lang ?? 'en')
      .buffer(true)
      .parse(binary);

  const rowOf = (sheet: ExcelJS.Worksheet, n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
  /** A column of the values sheet, without its header and empty cells. */
  const valuesColumn = (sheet: ExcelJS.Worksheet, n: number) =>
    sheet
      .getColumn(n)
      .values.slice(2)
      .filter((v) => v !== null && v !== undefined)
      .map(String);

  describe('GET /api/v1/admin/tenantIdentities/template/{users|groups}', () => {
    it('answers an .xlsx with the headers and a values sheet of tenants (Global first, with ids) and grantable roles', async () => {
      const res = await template('users');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers['content-disposition']).to.equal('attachment; filename="UsersWithTenantTemplate.xlsx"');
      const workbook = await new ExcelJS.Workbook().xlsx.load(res.body);
      const [sheet, values] = workbook.worksheets;
      expect(sheet!.name).to.equal('Users');
      expect(rowOf(sheet!, 1)).to.deep.equal(USERS_HEADER);
      expect(sheet!.getCell('E1').note).to.match(/^Yes: /);
      expect(values!.name).to.equal('Values');
      const tenants = valuesColumn(values!, 1);
      expect(tenants[0]).to.equal('Global');
      expect(valuesColumn(values!, 2)[0]).to.equal(GLOBAL_TENANT_ID);
      expect(tenants).to.include.members([w.tenantA.title, w.tenantB.title]);
      const roles = valuesColumn(values!, 3).map((app, i) => `${app}:${valuesColumn(values!, 4)[i]}`);
      expect(roles).to.include.members([`${w.app.name}:Reader`, `${w.app.name}:Writer`, 'identity:Administrator']);
      // God is God's alone.
      expect(roles).to.not.include('identity:God');
      expect(valuesColumn(values!, 5)).to.deep.equal(['Yes', 'No']);
    });

    it('offers a Manager neither the Global tenant nor the Identity application’s roles', async () => {
      const res = await template('groups', { as: 'manager' });
      expect(res.status).to.equal(200);
      expect(res.headers['content-disposition']).to.equal('attachment; filename="GroupsWithTenantTemplate.xlsx"');
      const workbook = await new ExcelJS.Workbook().xlsx.load(res.body);
      const [sheet, values] = workbook.worksheets;
      expect(rowOf(sheet!, 1)).to.deep.equal(GROUPS_HEADER);
      expect(valuesColumn(values!, 1)).to.include(w.tenantA.title);
      expect(valuesColumn(values!, 1)).to.not.include('Global');
      expect(valuesColumn(values!, 3)).to.include(w.app.name);
      expect(valuesColumn(values!, 3)).to.not.include('identity');
    });

    it('writes the headers, notes and values sheet in the caller’s language', async () => {
      const workbook = await new ExcelJS.Workbook().xlsx.load((await template('users', { lang: 'fr' })).body);
      const [sheet, values] = workbook.worksheets;
      expect(sheet!.name).to.equal('Utilisateurs');
      expect(rowOf(sheet!, 1)).to.deep.equal(['Nom d’utilisateur ou e-mail', 'Entité', 'Application', 'Rôle', 'Héritable']);
      expect(values!.name).to.equal('Valeurs');
      expect(valuesColumn(values!, 5)).to.deep.equal(['Oui', 'Non']);
    });

    it('answers 403 to an AreaAdministrator, a TenantAdministrator and a user without an administration role', async () => {
      for (const as of ['areaAdmin', 'tenantAdmin'] as const) expect((await template('users', { as })).status).to.equal(403);
      expect((await callWithRoles(w, ['User'], '/tenantIdentities/template/groups')).status).to.equal(403);
    });
  });

  describe('POST /api/v1/admin/tenantIdentities/bulk_insert/users', () => {
    withBackgroundJobs(() => w);

    it('gives the good rows’ roles, and reports bad rows by their Excel row number, without stopping', async () => {
      const [ann, bob, cleo] = [await userIn(w, w.areaA), await userIn(w, w.areaB), await userIn(w, w.areaA)];
      await w.context.dataSource.query(`UPDATE users SET email = $2::text, normalized_email = lower($2::text) WHERE id = $1`, [cleo.id, `Cleo-${cleo.id}@Example.com`]);
      await holds(w, { user: bob }, w.tenantB, ['Reader'], false);
      const file = await xlsx([
        USERS_HEADER,
        [ann.userName.toUpperCase(), w.tenantA.title, w.app.name, 'reader', 'Yes'], // 2: applied (any case)
        [ann.userName, w.childOfA.id, w.app.displayName, 'Writer', 'No'], // 3: applied, by tenant id and display name, not inheritable
        [`cleo-${cleo.id}@example.com`, 'Global', w.app.name, 'Reader', ''], // 4: applied, found by e-mail, in the Global tenant
        ['nobody@example.com', w.tenantA.title, w.app.name, 'Reader', 'Yes'], // 5: unknown user
        [ann.userName, 'No such tenant', w.app.name, 'Reader', 'Yes'], // 6: unknown tenant
        [ann.userName, w.tenantA.title, 'no-such-app', 'Reader', 'Yes'], // 7: unknown application
        [ann.userName, w.tenantA.title, w.app.name, 'Administrator', 'Yes'], // 8: not a role of that application
        [ann.userName, w.tenantA.title, w.app.name, 'Writer', 'maybe'], // 9: bad Inheritable
        [bob.userName, w.tenantB.title, w.app.name, 'Reader', ''], // 10: already held: warning
        [ann.userName.toLowerCase(), w.tenantA.title, w.app.name, 'Reader', 'yes'], // 11: same as row 2: warning
        [],
        [null, null, w.app.name, null, null], // 13: user, tenant and role empty
      ]);
      const heard = await announcedDuring(w, async () => {
        expect(await importResult(w.context, await upload('users', file))).to.deep.equal({
          success: false,
          totalElements: 11,
          importedElements: 3,
          errors: [
            { row: 5, reason: 'No user nobody@example.com was found.' },
            { row: 6, reason: 'No tenant No such tenant was found.' },
            { row: 7, reason: 'No application no-such-app was found.' },
            { row: 8, reason: `The application ${w.app.name} has no role Administrator.` },
            { row: 9, reason: 'Inheritable must be Yes or No, not "maybe".' },
            { row: 13, reason: 'The user name or e-mail is empty. The tenant is empty. The role is empty.' },
          ],
          warnings: [
            { row: 10, reason: `The role Reader of ${w.app.name} is already held in ${w.tenantB.title}: nothing to do.` },
            { row: 11, reason: 'Same as row 2: skipped.' },
          ],
        });
      });
      expect(await ownRolesOf(w, ann.id)).to.deep.equal({
        [w.tenantA.id]: { inheritable: true, roles: [`${w.app.name}:Reader`] },
        [w.childOfA.id]: { inheritable: false, roles: [`${w.app.name}:Writer`] },
      });
      expect(await ownRolesOf(w, cleo.id)).to.deep.equal({ [GLOBAL_TENANT_ID]: { inheritable: true, roles: [`${w.app.name}:Reader`] } });
      expect(await ownRolesOf(w, bob.id)).to.deep.equal({ [w.tenantB.id]: { inheritable: false, roles: [`${w.app.name}:Reader`] } });
      expect([...new Set(heard)].sort()).to.deep.equal([ann.id, cleo.id].sort());

      const grants = (await systemLogs(w, 'Permission', w.callers.admin.id)).filter((l) => [ann.id, cleo.id].includes(l.metadata.targetUserId as string));
      // Each row is logged as every grant is: one Permission row of the users path.
      const added = (l: (typeof grants)[number]) => (l.metadata.added as Array<{ roleId: string; roleName: string }>).map(({ roleId, roleName }) => ({ roleId, roleName }));
      expect(grants.map((l) => [l.tenant_id, l.metadata.targetUserId, l.metadata.action, l.metadata.via, added(l)])).to.deep.equal([
        [w.tenantA.id, ann.id, 'grant', 'users', [{ roleId: w.app.roleByName.Reader!.id, roleName: 'Reader' }]],
        [w.childOfA.id, ann.id, 'grant', 'users', [{ roleId: w.app.roleByName.Writer!.id, roleName: 'Writer' }]],
        [GLOBAL_TENANT_ID, cleo.id, 'grant', 'users', [{ roleId: w.app.roleByName.Reader!.id, roleName: 'Reader' }]],
      ]);
      const [bulk] = (await systemLogs(w, 'BulkInsert', w.callers.admin.id)).slice(-1);
      expect(bulk!.metadata).to.deep.equal({ type: 'BulkInsertUsersWithTenant', fileName: 'roles.xlsx', totalElements: 11, importedElements: 3, errors: 6, warnings: 2 });
    });

    it('refuses per row what a Manager may not give: the Global tenant, the Identity application’s roles, and anything to an Administrator', async () => {
      const target = await userIn(w, w.areaA);
      const file = await xlsx([
        USERS_HEADER,
        [target.userName, 'Global', w.app.name, 'Reader', 'Yes'], // 2: Global
        [target.userName, w.tenantA.title, 'identity', 'Administrator', 'Yes'], // 3: Identity role
        [w.callers.admin.userName, w.tenantA.title, w.app.name, 'Reader', 'Yes'], // 4: outranks the caller
        [target.userName, w.tenantA.title, w.app.name, 'Writer', 'Yes'], // 5: fine
      ]);
      const result = await importResult(w.context, await upload('users', file, { as: 'manager' }));
      expect(result).to.deep.include({ success: false, totalElements: 4, importedElements: 1 });
      expect(result.errors).to.deep.equal([
        { row: 2, reason: 'Only an administrator can change roles in the Global tenant' },
        { row: 3, reason: 'Only an administrator can grant or revoke roles of the identity application' },
        { row: 4, reason: 'You cannot change the access of someone who holds a higher role than yours' },
      ]);
      expect(await ownRolesOf(w, target.id)).to.deep.equal({ [w.tenantA.id]: { inheritable: true, roles: [`${w.app.name}:Writer`] } });
      expect(await ownRolesOf(w, w.callers.admin.id)).to.not.have.property(w.tenantA.id);
    });

    it('lets an Administrator give Identity roles, but not God, nor anything to a God user; a role granted through the hierarchy only cannot be picked', async () => {
      const target = await userIn(w, w.areaA);
      const app = await buildApplication(w.context.dataSource, { roles: ['Viewer'] });
      await w.context.dataSource.query(`INSERT INTO roles (application_id, name, by_hierarchy) VALUES ($1, 'Inherited', true)`, [app.id]);
      const file = await xlsx([
        USERS_HEADER,
        [target.userName, w.tenantA.title, 'identity', 'Manager', 'Yes'], // 2: fine
        [target.userName, 'Global', 'identity', 'God', 'Yes'], // 3: God
        [w.callers.god.userName, w.tenantA.title, app.name, 'Viewer', 'Yes'], // 4: outranks
        [target.userName, w.tenantA.title, app.name, 'Inherited', 'Yes'], // 5: by hierarchy
      ]);
      const result = await importResult(w.context, await upload('users', file, { lang: 'fr' }));
      expect(result).to.deep.include({ totalElements: 4, importedElements: 1 });
      expect(result.errors.map((e) => e.row)).to.deep.equal([3, 4, 5]);
      expect(result.errors[0]!.reason).to.equal('Seul un utilisateur God peut attribuer ou retirer le rôle God');
      expect(await ownRolesOf(w, target.id)).to.deep.equal({ [w.tenantA.id]: { inheritable: true, roles: ['identity:Manager'] } });
      const god = await importResult(w.context, await upload('users', await xlsx([USERS_HEADER, [target.userName, 'Global', 'identity', 'God', 'No']]), { as: 'god' }));
      expect(god).to.deep.include({ success: true, importedElements: 1 });
    });

    it('sets the membership’s Inheritable when a row gives it (with a warning), and refuses two rows that disagree', async () => {
      const user = await userIn(w, w.areaA);
      await holds(w, { user }, w.tenantB, ['Reader'], true);
      const file = await xlsx([
        USERS_HEADER,
        [user.userName, w.tenantB.title, w.app.name, 'Writer', 'No'], // 2: adds Writer, and the membership is no longer inheritable
        [user.userName, w.tenantB.title, w.app.name, 'Reader', 'Yes'], // 3: disagrees with row 2
        [user.userName, w.tenantA.title, w.app.name, 'Reader', 'No'], // 4: a new, non-inheritable membership
      ]);
      expect(await importResult(w.context, await upload('users', file))).to.deep.equal({
        success: false,
        totalElements: 3,
        importedElements: 2,
        errors: [{ row: 3, reason: 'Row 2 gives another Inheritable value for the same tenant.' }],
        warnings: [{ row: 2, reason: `The roles held in ${w.tenantB.title} no longer apply in the tenants below it.` }],
      });
      expect(await ownRolesOf(w, user.id)).to.deep.equal({
        [w.tenantB.id]: { inheritable: false, roles: [`${w.app.name}:Reader`, `${w.app.name}:Writer`] },
        [w.tenantA.id]: { inheritable: false, roles: [`${w.app.name}:Reader`] },
      });
    });

    it('reads a downloaded template filled in, with its headers in another language', async () => {
      const user = await userIn(w, w.areaA);
      const workbook = await new ExcelJS.Workbook().xlsx.load((await template('users', { lang: 'de' })).body);
      workbook.worksheets[0]!.addRow([user.userName, w.tenantA.title, w.app.name, 'Reader', 'Ja']);
      const result = await importResult(w.context, await upload('users', Buffer.from(await workbook.xlsx.writeBuffer()), { lang: 'en' }));
      expect(result, JSON.stringify(result)).to.deep.include({ success: true, totalElements: 1, importedElements: 1 });
      expect(await ownRolesOf(w, user.id)).to.deep.equal({ [w.tenantA.id]: { inheritable: true, roles: [`${w.app.name}:Reader`] } });
    });

    it('grants a role once when the same file is uploaded twice at the same time', async () => {
      const user = await userIn(w, w.areaA);
      const file = await xlsx([USERS_HEADER, [user.userName, w.tenantA.title, w.app.name, 'Reader', 'Yes']]);
      const [first, second] = await Promise.all([upload('users', file), upload('users', file)]);
      const [one, other] = await Promise.all([importResult(w.context, first), importResult(w.context, second)]);
      expect(one.importedElements + other.importedElements).to.equal(1);
      expect(one.warnings.length + other.warnings.length).to.equal(1);
      const [{ count }] = await w.context.dataSource.query(
        `SELECT count(*)::int AS count FROM tenant_member_roles tmr JOIN tenant_members tm ON tm.id = tmr.tenant_member_id WHERE tm.user_id = $1`,
        [user.id],
      );
      expect(count).to.equal(1);
    });

    it('notifies the requester with the import result', async () => {
      const user = await userIn(w, w.areaA);
      const file = await xlsx([USERS_HEADER, [user.userName, w.tenantA.title, w.app.name, 'Reader', 'Yes'], ['ghost@example.com', w.tenantA.title, w.app.name, 'Reader', '']]);
      const result = await importResult(w.context, await upload('users', file, { as: 'manager' }));
      const notification = await jobNotification(w, w.callers.manager.id, 'BulkInsertUsersWithTenant', (n) => JSON.stringify(n.data) === JSON.stringify(result));
      expect(notification.data).to.deep.equal({
        success: false,
        totalElements: 2,
        importedElements: 1,
        errors: [{ row: 3, reason: 'No user ghost@example.com was found.' }],
        warnings: [],
      });
    });

    it('grants nothing for a Manager whose role was taken away between the upload and the job', async () => {
      const manager = await userIn(w, w.areaA);
      await grant(w.context.dataSource, { tenant: w.tenantA, user: manager, roles: [w.identity.roleByName.Manager!] });
      const target = await userIn(w, w.areaA);
      const undo = await whenJobStarts(w.context, manager.id, { statement: `DELETE FROM tenant_members WHERE user_id = '${manager.id}';` });
      try {
        const res = await request(w.server)
          .post('/api/v1/admin/tenantIdentities/bulk_insert/users')
          .set('Authorization', await bearer(w, 'manager', manager))
          .set('Accept-Language', 'en')
          .attach('file', await xlsx([USERS_HEADER, [target.userName, w.tenantA.title, w.app.name, 'Reader', 'Yes']]), 'roles.xlsx');
        expect(await queuedJob(w.context, res)).to.include({ status: 'Failed', error: 'You do not have permission to perform this action' });
      } finally {
        await undo();
      }
      expect(await ownRolesOf(w, target.id)).to.deep.equal({});
      expect(await systemLogs(w, 'BulkInsert', manager.id)).to.deep.equal([]);
    });

    it('answers 403 to an AreaAdministrator and a TenantAdministrator, changing nothing', async () => {
      const user = await userIn(w, w.areaA);
      const file = await xlsx([USERS_HEADER, [user.userName, w.tenantA.title, w.app.name, 'Reader', 'Yes']]);
      for (const as of ['areaAdmin', 'tenantAdmin'] as const) {
        const res = await upload('users', file, { as });
        expect(res.status).to.equal(403);
        expect(res.body.message).to.equal('You do not have permission to perform this action');
      }
      expect(await ownRolesOf(w, user.id)).to.deep.equal({});
    });

    it('refuses a file that is not .xlsx with "Extension not allowed"', async () => {
      const file = await xlsx([USERS_HEADER, [(await userIn(w, w.areaA)).userName, w.tenantA.title, w.app.name, 'Reader', 'Yes']]);
      const res = await upload('users', file, { name: 'roles.csv' });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'import.extension_not_allowed', message: 'Extension not allowed' });
      const fr = await upload('users', file, { name: 'roles.xls', lang: 'fr' });
      expect(fr.body.message).to.equal('Extension non autorisée');
    });

    it('answers 400 with a clear message for a file with only its header, without the columns, or that is no workbook; 413 over 2 MB', async () => {
      const empty = await upload('users', await xlsx([USERS_HEADER]));
      expect(empty.status).to.equal(400);
      expect(empty.body).to.include({ code: 'import.no_rows', message: 'The file has no rows to import' });
      const blank = await upload('users', await xlsx([]));
      expect(blank.status).to.equal(400);
      expect(blank.body.code).to.equal('import.no_rows');
      const columns = await upload('users', await xlsx([['UserName', 'Tenant'], ['someone', 'somewhere']]));
      expect(columns.status).to.equal(400);
      expect(columns.body.message).to.equal('The first row of the file must name the columns; missing: Application, Role');
      const garbage = await upload('users', Buffer.from('not a zip at all'));
      expect(garbage.status).to.equal(400);
      expect(garbage.body.code).to.equal('import.unreadable_file');
      const large = await upload('users', randomBytes(2 * 1024 * 1024 + 1));
      expect(large.status).to.equal(413);
    });
  });

  describe('POST /api/v1/admin/tenantIdentities/bulk_insert/groups', () => {
    withBackgroundJobs(() => w);

    it('reads a blank Inheritable as the default (a new membership is inheritable), and names the column and the value of a bad one', async () => {
      const [first, second] = [await groupIn(w, w.areaA), await groupIn(w, w.areaA)];
      const file = await xlsx([
        GROUPS_HEADER,
        [first.id, w.tenantA.title, w.app.name, 'Reader', null], // 2: applied, inheritable
        [first.id, w.tenantA.title, w.app.name, 'Writer', null], // 3: applied to the same membership
        [second.id, w.tenantA.title, w.app.name, 'Reader', 'sometimes'], // 4: bad Inheritable
      ]);
      expect(await importResult(w.context, await upload('groups', file))).to.deep.equal({
        success: false,
        totalElements: 3,
        importedElements: 2,
        errors: [{ row: 4, reason: 'Inheritable must be Yes or No, not "sometimes".' }],
        warnings: [],
      });
      expect(await groupRolesOf(w, first.id)).to.deep.equal({ [w.tenantA.id]: { inheritable: true, roles: [`${w.app.name}:Reader`, `${w.app.name}:Writer`] } });
      expect(await groupRolesOf(w, second.id)).to.deep.equal({});
    });

    it('gives groups roles through the group page’s own rules, by name or id, and reports bad rows', async () => {
      const sales = await groupIn(w, w.areaA, { name: `Sales ${randomUUID().slice(0, 6)}` });
      const member = await userIn(w, w.areaA);
      await addMember(w, sales, member);
      // Two groups share a name in two areas: the name is ambiguous, the id is not.
      const twinName = `Twin ${randomUUID().slice(0, 6)}`;
      const twinA = await groupIn(w, w.areaA, { name: twinName });
      await groupIn(w, w.areaB, { name: twinName });
      await holds(w, { group: twinA }, w.tenantB, ['Writer'], false);
      const file = await xlsx([
        GROUPS_HEADER,
        [sales.name, w.tenantA.title, w.app.name, 'Reader', 'No'], // 2: applied
        [twinName, w.tenantA.title, w.app.name, 'Reader', 'Yes'], // 3: ambiguous
        [twinA.id, w.tenantA.title, w.app.name, 'Reader', 'Yes'], // 4: applied by id
        [twinA.id, w.tenantB.title, w.app.name, 'Writer', ''], // 5: already held
        ['No such group', w.tenantA.title, w.app.name, 'Reader', 'Yes'], // 6: unknown
        [sales.name, 'Global', 'identity', 'God', 'Yes'], // 7: God is God's
      ]);
      const heard = await announcedDuring(w, async () => {
        expect(await importResult(w.context, await upload('groups', file))).to.deep.equal({
          success: false,
          totalElements: 6,
          importedElements: 2,
          errors: [
            { row: 3, reason: `Several groups are named ${twinName}: use the group id.` },
            { row: 6, reason: 'No group No such group was found.' },
            { row: 7, reason: 'Only God can give or take away the God role' },
          ],
          warnings: [{ row: 5, reason: `The role Writer of ${w.app.name} is already held in ${w.tenantB.title}: nothing to do.` }],
        });
      });
      expect(heard).to.deep.equal([member.id]);
      expect(await groupRolesOf(w, sales.id)).to.deep.equal({ [w.tenantA.id]: { inheritable: false, roles: [`${w.app.name}:Reader`] } });
      expect(await groupRolesOf(w, twinA.id)).to.deep.equal({
        [w.tenantA.id]: { inheritable: true, roles: [`${w.app.name}:Reader`] },
        [w.tenantB.id]: { inheritable: false, roles: [`${w.app.name}:Writer`] },
      });
      const logs = (await systemLogs(w, 'Permission', w.callers.admin.id)).filter((l) => [sales.id, twinA.id].includes(l.metadata.targetGroupId as string));
      expect(logs.every((l) => l.metadata.via === 'groups' && l.metadata.action === 'grant')).to.equal(true);
      expect(logs.map((l) => [l.metadata.targetGroupId, l.tenant_id])).to.deep.equal([
        [sales.id, w.tenantA.id],
        [twinA.id, w.tenantA.id],
      ]);
      const [bulk] = (await systemLogs(w, 'BulkInsert', w.callers.admin.id)).slice(-1);
      expect(bulk!.metadata).to.deep.include({ type: 'BulkInsertGroupsWithTenant', totalElements: 6, importedElements: 2, errors: 3, warnings: 1 });
    });

    it('refuses per row a Manager’s Global and Identity rows, and an Administrator’s change to the Users group', async () => {
      const group = await groupIn(w, w.areaB);
      const users = await groupIn(w, w.areaA, { name: 'Users' });
      await holds(w, { group: users }, GLOBAL_TENANT_ID, ['Reader']);
      const manager = await importResult(
        w.context,
        await upload(
          'groups',
          await xlsx([
            GROUPS_HEADER,
            [group.id, 'Global', w.app.name, 'Reader', 'Yes'],
            [group.id, w.tenantB.id, 'identity', 'User', 'Yes'],
            [group.id, w.tenantB.id, w.app.name, 'Writer', 'Yes'],
          ]),
          { as: 'manager' },
        ),
      );
      expect(manager).to.deep.equal({
        success: false,
        totalElements: 3,
        importedElements: 1,
        errors: [
          { row: 2, reason: 'Only administrators can use the Global tenant' },
          { row: 3, reason: 'Only administrators can give or take away the roles of the Identity application' },
        ],
        warnings: [],
      });
      expect(await groupRolesOf(w, group.id)).to.deep.equal({ [w.tenantB.id]: { inheritable: true, roles: [`${w.app.name}:Writer`] } });
      const admin = await importResult(
        w.context,
        await upload('groups', await xlsx([GROUPS_HEADER, [users.id, w.tenantA.title, w.app.name, 'Writer', 'Yes'], [group.id, w.tenantB.id, w.app.name, 'Reader', 'Yes']])),
      );
      expect(admin).to.deep.include({ totalElements: 2, importedElements: 1 });
      expect(admin.errors).to.deep.equal([{ row: 2, reason: 'The Users group cannot be edited: no more tenant roles can be added to it' }]);
      expect(await groupRolesOf(w, users.id)).to.deep.equal({ [GLOBAL_TENANT_ID]: { inheritable: true, roles: [`${w.app.name}:Reader`] } });
      const god = await importResult(w.context, await upload('groups', await xlsx([GROUPS_HEADER, [users.id, w.tenantA.title, w.app.name, 'Writer', 'Yes']]), { as: 'god' }));
      expect(god).to.deep.include({ success: true, importedElements: 1 });
    });
  });
});
