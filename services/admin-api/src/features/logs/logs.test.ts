import { LOG_EXPORT_MAX_ROWS, logsRoutes, type Sort } from '@gatehouse/contracts';
import { buildTenant } from '@gatehouse/core/testing';
import type { Tenant, User } from '@gatehouse/core';
import { expect } from 'chai';
import request from 'supertest';
import { buildAdminWorld, call, userIn, type AdminWorld, type Persona } from '../../testing/admin-world.js';
import { downloadJobFile, exportFile, firstSheet, jobCount, jobNotification, jobProgress, withBackgroundJobs } from '../../testing/exports.js';
import { queuedJob } from '../../testing/jobs.js';
import { mintAccessToken } from '../../testing/tokens.js';
import { authenticationLogs, externalApiAccessLogs, logPageSql, sessionLogs, systemLogs } from './repository.js';
import { seedAuthenticationLogs, seedExternalApiAccessLogs, seedSessionLogs, seedSystemLogs } from './testing.js';

const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((item) => item.id);

/** A GET of the logs API as `as` (Administrator unless told). */
const logs = (w: AdminWorld, path: string, options: Parameters<typeof call>[3] = {}) => call(w, 'get', `/logs/${path}`, options);

/** The file an export job wrote, downloaded as its requester (Administrator unless told) after the route's 202. */
async function exported(w: AdminWorld, path: string, options: { lang?: string; as?: Persona } = {}) {
  return (await exportFile(w, `/logs/${path}`, options)).file;
}
async function sheetRows(body: Buffer): Promise<unknown[][]> {
  return (await firstSheet(body)).rows;
}

describe('Logs API', () => {
  let w: AdminWorld;
  let ann: User;
  let bob: User;
  let childOfA: Tenant;
  /** The seeded rows' ids by name. */
  const auth: Record<string, string> = {};
  const sys: Record<string, string> = {};
  const ses: Record<string, string> = {};
  const ext: Record<string, string> = {};

  before(async () => {
    w = await buildAdminWorld();
    const db = w.context.dataSource;
    ann = await userIn(w, w.areaA, { userName: 'ann@example.com' });
    bob = await userIn(w, w.areaB, { userName: 'bob@example.com' });
    childOfA = await buildTenant(db, { areaId: w.areaA.id, parentId: w.tenantA.id });

    [auth.annSuccess, auth.annLateInSecond, auth.bobMicrosoft, auth.ghost, auth.annLocked, auth.bobUnlocked] = await seedAuthenticationLogs(db, [
      { date: '2025-03-01T10:00:00.000Z', userId: ann.id, userName: ann.userName, result: 'Success', applicationName: 'crm', ip: '10.0.0.1' },
      { date: '2025-03-01T10:00:00.750Z', userId: ann.id, userName: ann.userName, result: 'Failure', reason: 'Invalid credentials' },
      { date: '2025-03-02T08:30:00.000Z', userId: bob.id, userName: bob.userName, result: 'Success', provider: 'Microsoft' },
      { date: '2025-03-03T00:00:00.000Z', userName: 'ghost@example.com', result: 'FullUserLocked', reason: 'Permanently locked' },
      { date: '2025-03-04T12:00:00.000Z', userId: ann.id, userName: ann.userName, result: 'UserLocked' },
      { date: '2025-03-05T12:00:00.000Z', userId: bob.id, userName: bob.userName, result: 'Unlocked', provider: 'Microsoft' },
    ]);

    const admin = w.callers.admin;
    [sys.createAnn, sys.grantBob, sys.renameB, sys.addAnnToGroup, sys.roleInB, sys.annActs] = await seedSystemLogs(db, [
      { date: '2025-04-01T09:00:00Z', userId: admin.id, userName: admin.userName, operation: 'CreateUser', metadata: { targetUserId: ann.id, targetUserName: ann.userName } },
      {
        date: '2025-04-02T09:00:00Z',
        userId: admin.id,
        userName: admin.userName,
        tenantId: w.tenantA.id,
        tenantName: w.tenantA.title,
        operation: 'Permission',
        metadata: { action: 'grant', targetUserId: bob.id, roles: [{ roleName: 'Reader' }] },
      },
      {
        date: '2025-04-03T09:00:00Z',
        userId: bob.id,
        userName: bob.userName,
        tenantId: w.tenantB.id,
        tenantName: w.tenantB.title,
        operation: 'UpdateTenant',
        metadata: { changes: { title: { from: 'Old', to: 'Zebra Corp' } } },
      },
      { date: '2025-04-04T09:00:00Z', userId: admin.id, userName: admin.userName, operation: 'AddGroupMember', metadata: { memberId: ann.id, groupName: 'Sales' } },
      { date: '2025-04-05T09:00:00Z', userId: bob.id, userName: bob.userName, operation: 'Permission', metadata: { action: 'revokeAll', tenantId: w.tenantB.id } },
      { date: '2025-04-06T09:00:00Z', userId: ann.id, userName: ann.userName, operation: 'LockUser', metadata: { targetUserId: bob.id } },
    ]);

    [ses.annA, ses.bobChild, ses.otherB] = await seedSessionLogs(db, [
      { date: '2025-05-01T09:00:00Z', userId: ann.id, userName: ann.userName, roles: ['Reader'], applicationName: 'crm', tenantId: w.tenantA.id },
      { date: '2025-05-02T09:00:00Z', userId: bob.id, userName: bob.userName, roles: ['Writer', 'Reader'], applicationName: 'erp', tenantId: childOfA.id },
      { date: '2025-05-03T09:00:00Z', userId: bob.id, userName: bob.userName, roles: [], applicationName: 'crm', tenantId: w.tenantB.id },
    ]);

    [ext.annRoles, ext.bobLock, ext.anonymous] = await seedExternalApiAccessLogs(db, [
      { date: '2025-06-01T09:00:00Z', ip: '10.0.0.1', userId: ann.id, userName: ann.userName, apiEntry: 'GetRoles', metadata: { application: 'crm' } },
      { date: '2025-06-02T09:00:00Z', ip: '10.0.0.2', userId: bob.id, userName: bob.userName, apiEntry: 'LockUser', metadata: { target: 'x' } },
      { date: '2025-06-03T09:00:00Z', ip: '10.0.0.2', apiEntry: 'InviteUsers' },
    ]);
  });

  describe('GET /api/v1/admin/logs/authenticationlogs', () => {
    it('lists every sign-in attempt newest first, with its fields', async () => {
      const res = await logs(w, 'authenticationlogs');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.count).to.equal(6);
      expect(ids(res)).to.deep.equal([auth.bobUnlocked, auth.annLocked, auth.ghost, auth.bobMicrosoft, auth.annLateInSecond, auth.annSuccess]);
      expect(res.body.items.at(-1)).to.deep.equal({
        id: auth.annSuccess,
        date: '2025-03-01T10:00:00.000Z',
        userId: ann.id,
        userName: 'ann@example.com',
        reason: null,
        result: 'Success',
        authenticationProvider: 'Local',
        returnUrl: null,
        applicationName: 'crm',
        ip: '10.0.0.1',
        userAgent: null,
        actorId: null,
        actorName: null,
      });
    });

    it('takes the range in YYYY-MM-DD HH:mm:ss (UTC) with both ends included, the end to the end of its second', async () => {
      const res = await logs(w, `authenticationlogs?startDate=${encodeURIComponent('2025-03-01 10:00:00')}&endDate=${encodeURIComponent('2025-03-03 00:00:00')}`);
      expect(res.status).to.equal(200);
      expect(ids(res)).to.deep.equal([auth.ghost, auth.bobMicrosoft, auth.annLateInSecond, auth.annSuccess]);
      // The row 750 ms into 10:00:00 belongs to that second.
      const oneSecond = await logs(w, `authenticationlogs?startDate=${encodeURIComponent('2025-03-01 10:00:00')}&endDate=${encodeURIComponent('2025-03-01 10:00:00')}`);
      expect(ids(oneSecond)).to.deep.equal([auth.annLateInSecond, auth.annSuccess]);
      // One millisecond later, the first row is out.
      const after = await logs(w, `authenticationlogs?startDate=${encodeURIComponent('2025-03-01T10:00:00.001Z')}&endDate=2025-03-02`);
      expect(ids(after)).to.deep.equal([auth.bobMicrosoft, auth.annLateInSecond]);
    });

    it('reads ISO dates with their offset, and a bare end date as the whole day', async () => {
      // 11:00 at +01:00 is 10:00 UTC.
      const res = await logs(w, `authenticationlogs?startDate=${encodeURIComponent('2025-03-01T11:00:00.500+01:00')}&endDate=2025-03-01`);
      expect(ids(res)).to.deep.equal([auth.annLateInSecond]);
      const onlyStart = await logs(w, `authenticationlogs?startDate=2025-03-04`);
      expect(ids(onlyStart)).to.deep.equal([auth.bobUnlocked, auth.annLocked]);
      const onlyEnd = await logs(w, `authenticationlogs?endDate=${encodeURIComponent('2025-03-02 08:29:59')}`);
      expect(ids(onlyEnd)).to.deep.equal([auth.annLateInSecond, auth.annSuccess]);
    });

    it('refuses an end before the start with a 400 naming endDate, and takes equal ends', async () => {
      const res = await logs(w, `authenticationlogs?startDate=${encodeURIComponent('2025-03-02 00:00:00')}&endDate=${encodeURIComponent('2025-03-01 23:59:59')}`);
      expect(res.status).to.equal(400);
      expect(res.body.errors).to.deep.equal([{ field: 'endDate', code: 'logs.end_before_start', message: 'The end date must not be before the start date' }]);
      const french = await logs(w, `systemlog?startDate=2025-04-02&endDate=2025-04-01`, { lang: 'fr' });
      expect(french.status).to.equal(400);
      expect(french.body.errors[0]).to.include({ field: 'endDate', message: 'La date de fin ne peut pas être antérieure à la date de début' });
      expect((await logs(w, 'sessionlog?startDate=2025-05-01&endDate=2025-05-01')).status).to.equal(200);
    });

    for (const [field, value] of [
      ['startDate', 'yesterday'],
      ['startDate', '2025-02-30 10:00:00'],
      ['endDate', '2025-03-01 24:00:00'],
      ['endDate', '01-03-2025'],
      ['startDate', '2025-03-01T10:00:00+25:00'],
    ] as const) {
      it(`refuses ${field}=${value} with a 400 naming the field`, async () => {
        const res = await logs(w, `authenticationlogs?${field}=${encodeURIComponent(value)}`);
        expect(res.status).to.equal(400);
        expect(res.body.code).to.equal('errors.validation');
        expect(res.body.errors.map((error: { field: string }) => error.field)).to.deep.equal([field]);
      });
    }

    it('filters by result and by provider', async () => {
      expect(ids(await logs(w, 'authenticationlogs?result=Success'))).to.deep.equal([auth.bobMicrosoft, auth.annSuccess]);
      expect(ids(await logs(w, 'authenticationlogs?result=FullUserLocked'))).to.deep.equal([auth.ghost]);
      expect(ids(await logs(w, 'authenticationlogs?provider=Microsoft'))).to.deep.equal([auth.bobUnlocked, auth.bobMicrosoft]);
      expect(ids(await logs(w, 'authenticationlogs?provider=Microsoft&result=Success'))).to.deep.equal([auth.bobMicrosoft]);
      // A blank filter is no filter.
      expect((await logs(w, 'authenticationlogs?result=&provider=')).body.count).to.equal(6);
    });

    it('refuses an unknown result or provider with a 400 naming it', async () => {
      const res = await logs(w, 'authenticationlogs?result=Locked&provider=Google');
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((error: { field: string }) => error.field).sort()).to.deep.equal(['provider', 'result']);
    });

    it('filters by user, as an id or as a part of the user name, and searches user names', async () => {
      expect(ids(await logs(w, `authenticationlogs?user=${bob.id}`))).to.deep.equal([auth.bobUnlocked, auth.bobMicrosoft]);
      expect(ids(await logs(w, `authenticationlogs?user=${bob.id.toUpperCase()}`))).to.deep.equal([auth.bobUnlocked, auth.bobMicrosoft]);
      expect(ids(await logs(w, 'authenticationlogs?user=GHOST'))).to.deep.equal([auth.ghost]);
      expect(ids(await logs(w, 'authenticationlogs?$search=ann@&result=UserLocked'))).to.deep.equal([auth.annLocked]);
      // Pattern characters are text: "%" finds nothing.
      expect((await logs(w, 'authenticationlogs?user=%25')).body.count).to.equal(0);
    });

    it('pages in SQL with the total of the filtered rows, even past the end', async () => {
      const page = await logs(w, 'authenticationlogs?top=2&skip=2');
      expect(page.body).to.deep.include({ count: 6 });
      expect(ids(page)).to.deep.equal([auth.ghost, auth.bobMicrosoft]);
      const last = await logs(w, 'authenticationlogs?top=4&skip=4');
      expect(last.body.count).to.equal(6);
      expect(ids(last)).to.deep.equal([auth.annLateInSecond, auth.annSuccess]);
      const past = await logs(w, 'authenticationlogs?top=10&skip=50&result=Success');
      expect(past.body).to.deep.equal({ items: [], count: 2 });
    });

    it('sorts by the declared fields only, ties by id', async () => {
      const byUser = await logs(w, 'authenticationlogs?orderBy=userName%20asc');
      expect(byUser.body.items.map((item: { userName: string }) => item.userName)).to.deep.equal([
        'ann@example.com',
        'ann@example.com',
        'ann@example.com',
        'bob@example.com',
        'bob@example.com',
        'ghost@example.com',
      ]);
      expect(ids(byUser).slice(0, 3)).to.deep.equal([auth.annSuccess, auth.annLateInSecond, auth.annLocked]);
      expect(ids(await logs(w, 'authenticationlogs?orderBy=date%20asc')).at(0)).to.equal(auth.annSuccess);
      const refused = await logs(w, 'authenticationlogs?orderBy=user_agent%3B%20drop');
      expect(refused.status).to.equal(400);
      expect(refused.body.errors[0].field).to.equal('orderBy');
    });
  });

  describe('GET /api/v1/admin/logs/systemlog', () => {
    it('lists the administrative changes newest first, metadata included', async () => {
      const res = await logs(w, 'systemlog');
      expect(res.status).to.equal(200);
      expect(ids(res)).to.deep.equal([sys.annActs, sys.roleInB, sys.addAnnToGroup, sys.renameB, sys.grantBob, sys.createAnn]);
      expect(res.body.items.find((item: { id: string }) => item.id === sys.grantBob)).to.deep.equal({
        id: sys.grantBob,
        date: '2025-04-02T09:00:00.000Z',
        userId: w.callers.admin.id,
        userName: w.callers.admin.userName,
        tenantId: w.tenantA.id,
        tenantName: w.tenantA.title,
        operation: 'Permission',
        metadata: { action: 'grant', targetUserId: bob.id, roles: [{ roleName: 'Reader' }] },
        actorId: null,
        actorName: null,
      });
    });

    it('filters by operation, exactly', async () => {
      expect(ids(await logs(w, 'systemlog?operation=Permission'))).to.deep.equal([sys.roleInB, sys.grantBob]);
      expect((await logs(w, 'systemlog?operation=Permiss')).body.count).to.equal(0);
    });

    it('finds a text anywhere inside the metadata, in any case', async () => {
      expect(ids(await logs(w, 'systemlog?intoMetadata=zebra'))).to.deep.equal([sys.renameB]);
      expect(ids(await logs(w, 'systemlog?intoMetadata=revokeall'))).to.deep.equal([sys.roleInB]);
      // Keys too.
      expect(ids(await logs(w, 'systemlog?intoMetadata=groupName'))).to.deep.equal([sys.addAnnToGroup]);
    });

    it('filters by the tenant a row is about: its tenant, or a tenantId in its metadata', async () => {
      expect(ids(await logs(w, `systemlog?metadataTenantId=${w.tenantB.id}`))).to.deep.equal([sys.roleInB, sys.renameB]);
      expect(ids(await logs(w, `systemlog?metadataTenantId=${w.tenantA.id}`))).to.deep.equal([sys.grantBob]);
    });

    it('filters by the user a row is about: a target user or a group member', async () => {
      expect(ids(await logs(w, `systemlog?metadataUserId=${ann.id}`))).to.deep.equal([sys.addAnnToGroup, sys.createAnn]);
      expect(ids(await logs(w, `systemlog?metadataUserId=${bob.id}`))).to.deep.equal([sys.annActs, sys.grantBob]);
      // Who acted is the user filter.
      expect(ids(await logs(w, `systemlog?user=${bob.id}`))).to.deep.equal([sys.roleInB, sys.renameB]);
    });

    it('combines the filters with the date range', async () => {
      const res = await logs(w, `systemlog?metadataUserId=${bob.id}&startDate=${encodeURIComponent('2025-04-01 00:00:00')}&endDate=${encodeURIComponent('2025-04-05 23:59:59')}`);
      expect(ids(res)).to.deep.equal([sys.grantBob]);
    });

    it('refuses an id that is not one with a 400 naming the field', async () => {
      const res = await logs(w, 'systemlog?metadataUserId=42&metadataTenantId=x');
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((error: { field: string }) => error.field).sort()).to.deep.equal(['metadataTenantId', 'metadataUserId']);
    });
  });

  describe('GET /api/v1/admin/logs/sessionlog', () => {
    it('lists the sessions newest first, with the tenant as it is named now', async () => {
      const res = await logs(w, 'sessionlog');
      expect(ids(res)).to.deep.equal([ses.otherB, ses.bobChild, ses.annA]);
      expect(res.body.items[1]).to.deep.equal({
        id: ses.bobChild,
        date: '2025-05-02T09:00:00.000Z',
        userId: bob.id,
        userName: bob.userName,
        roles: ['Writer', 'Reader'],
        applicationName: 'erp',
        tenantId: childOfA.id,
        tenantName: childOfA.title,
        actorId: null,
        actorName: null,
      });
    });

    it('filters by tenant, and with includeHierarchy by the tenants below it too', async () => {
      expect(ids(await logs(w, `sessionlog?tenant=${w.tenantA.id}`))).to.deep.equal([ses.annA]);
      expect(ids(await logs(w, `sessionlog?tenant=${w.tenantA.id}&includeHierarchy=true`))).to.deep.equal([ses.bobChild, ses.annA]);
      expect(ids(await logs(w, `sessionlog?tenant=${w.tenantA.id}&includeHierarchy=false`))).to.deep.equal([ses.annA]);
      expect((await logs(w, 'sessionlog?includeHierarchy=maybe')).status).to.equal(400);
    });

    it('filters by application and by user', async () => {
      expect(ids(await logs(w, 'sessionlog?application=crm'))).to.deep.equal([ses.otherB, ses.annA]);
      expect(ids(await logs(w, 'sessionlog?application=crm&user=bob'))).to.deep.equal([ses.otherB]);
    });
  });

  describe('GET /api/v1/admin/logs/externalApiAccessLog', () => {
    it('lists the calls newest first', async () => {
      const res = await logs(w, 'externalApiAccessLog');
      expect(ids(res)).to.deep.equal([ext.anonymous, ext.bobLock, ext.annRoles]);
      expect(res.body.items[2]).to.deep.equal({
        id: ext.annRoles,
        date: '2025-06-01T09:00:00.000Z',
        ip: '10.0.0.1',
        userId: ann.id,
        userName: ann.userName,
        apiEntry: 'GetRoles',
        metadata: { application: 'crm' },
        actorId: null,
        actorName: null,
      });
    });

    it('filters by address, event, user and date range', async () => {
      expect(ids(await logs(w, 'externalApiAccessLog?ip=10.0.0.2'))).to.deep.equal([ext.anonymous, ext.bobLock]);
      expect(ids(await logs(w, 'externalApiAccessLog?apiEntry=LockUser'))).to.deep.equal([ext.bobLock]);
      expect(ids(await logs(w, `externalApiAccessLog?ip=10.0.0.2&user=${bob.id}`))).to.deep.equal([ext.bobLock]);
      expect(ids(await logs(w, 'externalApiAccessLog?startDate=2025-06-02&endDate=2025-06-02'))).to.deep.equal([ext.bobLock]);
    });

    it('refuses an event the external API does not have', async () => {
      const res = await logs(w, 'externalApiAccessLog?apiEntry=DropTables');
      expect(res.status).to.equal(400);
      expect(res.body.errors[0].field).to.equal('apiEntry');
    });
  });

  describe('who may read the logs', () => {
    const userOnly = async (path: string, roles: string[]) =>
      request(w.server)
        .get(`/api/v1/admin/logs/${path}`)
        .set('Authorization', `Bearer ${await mintAccessToken(w.context, w.key, { sub: ann.id, roles })}`)
        .set('Accept-Language', 'en');

    for (const path of ['authenticationlogs', 'authenticationlogs/export', 'systemlog', 'systemlog/export', 'sessionlog', 'externalApiAccessLog']) {
      it(`refuses ${path} to a caller holding only User (403)`, async () => {
        const res = await userOnly(path, ['User']);
        expect(res.status).to.equal(403);
        expect(res.body.message).to.equal('You do not have permission to perform this action');
      });
    }

    it('lets a Manager and a TenantAdministrator read every area', async () => {
      expect((await logs(w, 'authenticationlogs', { as: 'manager' })).body.count).to.equal(6);
      expect((await logs(w, 'systemlog', { as: 'tenantAdmin' })).body.count).to.equal(6);
    });

    it('shows an AreaAdministrator the rows of their areas’ users only, whatever the filters ask', async () => {
      // The area administrator holds AreaAdministrator in tenant A: area A, where ann and the callers are.
      expect(ids(await logs(w, 'authenticationlogs', { as: 'areaAdmin' }))).to.deep.equal([auth.annLocked, auth.annLateInSecond, auth.annSuccess]);
      expect((await logs(w, `authenticationlogs?user=${bob.id}`, { as: 'areaAdmin' })).body).to.deep.equal({ items: [], count: 0 });
      expect(ids(await logs(w, 'sessionlog', { as: 'areaAdmin' }))).to.deep.equal([ses.annA]);
      expect(ids(await logs(w, 'externalApiAccessLog', { as: 'areaAdmin' }))).to.deep.equal([ext.annRoles]);
    });

    it('shows an AreaAdministrator the changes made by their areas’ users or in their areas’ tenants', async () => {
      expect(ids(await logs(w, 'systemlog', { as: 'areaAdmin' }))).to.deep.equal([sys.annActs, sys.addAnnToGroup, sys.grantBob, sys.createAnn]);
    });

    describe('their exports', () => {
      withBackgroundJobs(() => w);

      it('narrows an AreaAdministrator’s exports the same way, in the job', async () => {
        const rows = await sheetRows((await exported(w, 'authenticationlogs/export', { as: 'areaAdmin' })).body);
        expect(rows.slice(1).map((row) => row[1])).to.deep.equal(['ann@example.com', 'ann@example.com', 'ann@example.com']);
        const changes = await sheetRows((await exported(w, 'systemlog/export', { as: 'areaAdmin' })).body);
        expect(changes.slice(1).map((row) => row[3])).to.deep.equal(['LockUser', 'AddGroupMember', 'Permission', 'CreateUser']);
      });
    });
  });

  describe('exports', () => {
    withBackgroundJobs(() => w);

    it('exports the filtered sign-in attempts to AuthenticationLogs.xlsx in a background job, headers and results in the caller’s language', async () => {
      const { job, file } = await exportFile(w, '/logs/authenticationlogs/export?result=FullUserLocked', { lang: 'fr' });
      expect(job).to.include({ type: 'ExportAuthenticationLogs', userId: w.callers.admin.id });
      expect(job.result).to.deep.include({ rows: 1 });
      expect(file.headers['content-type']).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(file.headers['content-disposition']).to.include('AuthenticationLogs.xlsx');
      expect(file.headers['cache-control']).to.equal('no-store');
      const rows = await sheetRows(file.body);
      expect(rows[0]).to.deep.equal(['Date (UTC)', 'Utilisateur', 'Résultat', 'Fournisseur', 'Motif', 'Application', 'URL de retour', 'Adresse IP', 'Navigateur']);
      expect(rows).to.have.length(2);
      expect((rows[1]![0] as Date).toISOString()).to.equal('2025-03-03T00:00:00.000Z');
      expect(rows[1]!.slice(1, 5)).to.deep.equal(['ghost@example.com', 'Blocage permanent', 'Local', 'Permanently locked']);
    });

    it('keeps the list’s sort, and says "Permanent lock" in English', async () => {
      const rows = await sheetRows((await exported(w, 'authenticationlogs/export?orderBy=userName%20desc&provider=Local')).body);
      expect(rows.slice(1).map((row) => [row[1], row[2]])).to.deep.equal([
        ['ghost@example.com', 'Permanent lock'],
        ['ann@example.com', 'User locked'],
        ['ann@example.com', 'Failure'],
        ['ann@example.com', 'Success'],
      ]);
    });

    it('exports the filtered changes to SystemLogs.xlsx, the metadata as JSON', async () => {
      const { job, file } = await exportFile(w, `/logs/systemlog/export?metadataTenantId=${w.tenantB.id}`);
      expect(job.type).to.equal('ExportSystemLogs');
      expect(file.headers['content-disposition']).to.include('SystemLogs.xlsx');
      const rows = await sheetRows(file.body);
      expect(rows[0]).to.deep.equal(['Date (UTC)', 'User', 'Tenant', 'Operation', 'Metadata']);
      expect(rows.slice(1).map((row) => row[3])).to.deep.equal(['Permission', 'UpdateTenant']);
      expect(JSON.parse(rows[2]![4] as string)).to.deep.equal({ changes: { title: { from: 'Old', to: 'Zebra Corp' } } });
    });

    it('writes a header row alone when nothing matches', async () => {
      const rows = await sheetRows((await exported(w, 'systemlog/export?operation=Nothing')).body);
      expect(rows).to.have.length(1);
    });

    it('notifies the requester with the file, which nobody else may download (404)', async () => {
      const job = await queuedJob(w.context, await logs(w, 'systemlog/export?operation=Nothing', { lang: 'es' }));
      const fileUrl = job.result!.fileUrl as string;
      const notification = await jobNotification(w, w.callers.admin.id, 'ExportSystemLogs', (n) => n.data.fileUrl === fileUrl);
      expect(notification.data).to.deep.equal({ success: true, fileUrl });
      // In the language of the console that asked, not the profile's (French by default).
      expect(notification.description).to.equal('Su exportación de los registros del sistema está lista');
      const theirs = await downloadJobFile(w, fileUrl, 'areaAdmin');
      expect(theirs.status).to.equal(404);
    });

    it('refuses bad filters with a 400 at once, queuing nothing', async () => {
      const before = await jobCount(w);
      const res = await logs(w, 'authenticationlogs/export?startDate=2025-03-05&endDate=2025-03-01');
      expect(res.status).to.equal(400);
      expect(res.headers['content-type']).to.match(/json/);
      expect(res.body.errors[0].field).to.equal('endDate');
      const result = await logs(w, 'authenticationlogs/export?result=Maybe');
      expect(result.status).to.equal(400);
      expect(result.body.errors[0].field).to.equal('result');
      expect(await jobCount(w)).to.equal(before);
      // The export has no page: a page parameter is no filter, and is ignored.
      const paged = await logs(w, 'systemlog/export?top=abc');
      expect(paged.status).to.equal(202);
    });
  });

  describe('indexes', () => {
    /** The plan of a page's query with sequential scans off: there are too few rows for the planner to pick an index on its own. */
    async function planOf(sql: { text: string; values: unknown[] }): Promise<string> {
      const runner = w.context.dataSource.createQueryRunner();
      await runner.connect();
      try {
        await runner.startTransaction();
        await runner.query('SET LOCAL enable_seqscan = off');
        const plan: Array<{ 'QUERY PLAN': string }> = await runner.query(`EXPLAIN ${sql.text}`, sql.values);
        return plan.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
    }
    const byDate: Sort = { field: 'date', direction: 'desc' };
    const page = { skip: 0, top: 10 };
    const range = { from: new Date('2025-01-01'), until: new Date('2026-01-01') };
    /** A tab's filters as the route hands them over (newest first), over every area. */
    const filter = (extra: Record<string, unknown> = {}) => ({ query: { orderBy: byDate, ...extra } as never, areaIds: null });

    it('reads a date range newest first through the date index', async () => {
      const plan = await planOf(logPageSql(authenticationLogs, filter({ startDate: range, endDate: range }), page));
      expect(plan).to.include('authentication_logs__date');
    });

    it('searches user names through the trigram indexes', async () => {
      for (const [source, index] of [
        [authenticationLogs, 'authentication_logs__user_name_trgm'],
        [systemLogs, 'system_logs__user_name_trgm'],
        [sessionLogs, 'session_logs__user_name_trgm'],
        [externalApiAccessLogs, 'external_api_access_logs__user_name_trgm'],
      ] as const) {
        const plan = await planOf(logPageSql(source as typeof authenticationLogs, filter({ user: 'example' }), page));
        expect(plan, index).to.include(index);
      }
    });

    it('reads the system log’s metadata filters through their indexes', async () => {
      expect(await planOf(logPageSql(systemLogs, filter({ intoMetadata: 'zebra' }), page))).to.include('system_logs__metadata_trgm');
      expect(await planOf(logPageSql(systemLogs, filter({ metadataUserId: ann.id }), page))).to.include('system_logs__metadata_users');
      const tenantPlan = await planOf(logPageSql(systemLogs, filter({ metadataTenantId: w.tenantB.id }), page));
      expect(tenantPlan).to.include('system_logs__metadata_tenant_id');
      expect(tenantPlan).to.include('system_logs__tenant_id_date');
    });

    it('reads the equality filters through their (filter, date) indexes', async () => {
      const cases: Array<[string, string]> = [
        [await planOf(logPageSql(authenticationLogs, filter({ provider: 'Microsoft' }), page)), 'authentication_logs__authentication_provider_date'],
        [await planOf(logPageSql(authenticationLogs, filter({ user: ann.id }), page)), 'authentication_logs__user_id_date'],
        [await planOf(logPageSql(sessionLogs, filter({ tenant: w.tenantA.id }), page)), 'session_logs__tenant_id_date'],
        [await planOf(logPageSql(externalApiAccessLogs, filter({ ip: '10.0.0.1' }), page)), 'external_api_access_logs__ip_date'],
      ];
      for (const [plan, index] of cases) expect(plan, index).to.include(index);
    });
  });

  it('declares every route of the Logs page under /api/v1/admin/logs', () => {
    expect(Object.values(logsRoutes).map((route) => `${route.method} ${route.path}`)).to.deep.equal([
      'GET /api/v1/admin/logs/authenticationlogs',
      'GET /api/v1/admin/logs/authenticationlogs/export',
      'GET /api/v1/admin/logs/systemlog',
      'GET /api/v1/admin/logs/systemlog/export',
      'GET /api/v1/admin/logs/sessionlog',
      'GET /api/v1/admin/logs/externalApiAccessLog',
    ]);
  });
});

describe('Logs API exports, in batches and bounded', function () {
  this.timeout(120_000);
  let w: AdminWorld;

  before(async () => {
    w = await buildAdminWorld();
  });
  withBackgroundJobs(() => w);

  it('writes every row of a filter larger than a batch once, in the list’s order, ties by id', async () => {
    const db = w.context.dataSource;
    // 4,500 rows over 7 distinct seconds: many ties on the date, which the keyset must step over.
    await db.query(
      `INSERT INTO authentication_logs (date, user_name, result)
       SELECT timestamptz '2024-01-01 00:00:00Z' + (i % 7) * interval '1 second', 'bulk-' || lpad(i::text, 5, '0') || '@example.com', 'Failure'
         FROM generate_series(1, 4500) AS i`,
    );
    const expected: Array<{ user_name: string }> = await db.query(
      `SELECT user_name FROM authentication_logs WHERE user_name LIKE 'bulk-%' ORDER BY date DESC, id DESC`,
    );
    const { job, file } = await exportFile(w, '/logs/authenticationlogs/export?user=bulk-');
    expect(await jobProgress(w, job.id)).to.deep.equal({ progress: 4500, total: 4500 });
    const rows = await sheetRows(file.body);
    expect(rows).to.have.length(4501);
    expect(rows.slice(1).map((row) => row[1])).to.deep.equal(expected.map((row) => row.user_name));

    const byName = await sheetRows((await exported(w, 'authenticationlogs/export?user=bulk-&orderBy=userName%20asc')).body);
    expect(byName.slice(1).map((row) => row[1])).to.deep.equal(expected.map((row) => row.user_name).sort());
  });

  it(`refuses with a 400 naming both numbers, at once, a filter that selects more than ${LOG_EXPORT_MAX_ROWS} rows`, async () => {
    await w.context.dataSource.query(
      `INSERT INTO system_logs (date, operation, metadata)
       SELECT timestamptz '2024-06-01 00:00:00Z' + i * interval '1 second', 'BulkInsert', '{}'::jsonb FROM generate_series(1, $1::int) AS i`,
      [LOG_EXPORT_MAX_ROWS + 1],
    );
    const res = await logs(w, 'systemlog/export?operation=BulkInsert');
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('logs.export_too_large');
    expect(res.body.message).to.equal(
      `These filters select ${LOG_EXPORT_MAX_ROWS + 1} rows, more than the ${LOG_EXPORT_MAX_ROWS} an export may hold: narrow the dates or the filters`,
    );
    // Without the last second, the filter selects exactly as many as an export holds, and it is written.
    const fits = await exportFile(w, `/logs/systemlog/export?operation=BulkInsert&endDate=${encodeURIComponent('2024-06-02 03:46:40')}`);
    expect(fits.job.result).to.deep.include({ rows: LOG_EXPORT_MAX_ROWS });
    expect(fits.file.body.length).to.be.greaterThan(100_000);
  });
});
