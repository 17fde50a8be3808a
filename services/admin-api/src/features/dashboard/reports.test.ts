import { randomBytes } from 'node:crypto';
import { GLOBAL_TENANT_ID, type Area, type Tenant, type User } from '@gatehouse/core';
import { createBaseApp } from '@gatehouse/core/http';
import { buildApplication, buildArea, buildGroup, buildTenant, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import request from 'supertest';
import { accessTokenBearer, koaAdminAuth } from '../../auth/koa-admin-auth.js';
import { bearer, buildAdminWorld, call, userIn, type AdminWorld, type Application, type Persona } from '../../testing/admin-world.js';
import { mintAccessToken } from '../../testing/tokens.js';
import { dashboardRoutes } from './router.js';
import { DashboardService } from './service.js';

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A moment far from the test run's own clock: rows around it never meet the rows of "now". */
const NOW = new Date('2001-06-15T10:20:30.000Z');
const at = (iso: string) => new Date(iso);
const ms = (date: Date, delta: number) => new Date(date.getTime() + delta);

/** The dashboard's routes behind the admin API's authentication, on a clock that reads `now`. */
function clockedServer(w: AdminWorld, now: Date) {
  const app = createBaseApp(w.context);
  app.use(koaAdminAuth([accessTokenBearer(w.context.accessTokens)], w.context.accountStates, w.context.dpop));
  const router = dashboardRoutes(w.context, new DashboardService(w.context, () => now));
  app.use(router.routes()).use(router.allowedMethods());
  return app.callback();
}

async function getAt(w: AdminWorld, now: Date, path: string, as: Persona = 'admin') {
  return request(clockedServer(w, now)).get(`/api/v1/admin/dashboard/${path}`).set('Authorization', await bearer(w, as)).set('Accept-Language', 'en');
}

async function signIn(w: AdminWorld, date: Date, result = 'Success', provider = 'Local') {
  await w.context.dataSource.query(`INSERT INTO authentication_logs (date, user_name, result, authentication_provider) VALUES ($1, $2, $3, $4)`, [
    date,
    unique('user'),
    result,
    provider,
  ]);
}

async function session(w: AdminWorld, date: Date, applicationName: string, user: { id: string | null; name: string }) {
  await w.context.dataSource.query(`INSERT INTO session_logs (date, user_id, user_name, roles, application_name) VALUES ($1, $2, $3, '{}', $4)`, [
    date,
    user.id,
    user.name,
    applicationName,
  ]);
}

async function apiCall(w: AdminWorld, date: Date, apiEntry: string) {
  await w.context.dataSource.query(`INSERT INTO external_api_access_logs (date, api_entry, user_name) VALUES ($1, $2, 'robot')`, [date, apiEntry]);
}

const REPORTS = ['loginLastHours', 'adminPerApp', 'globalAdminPerAreas', 'connectedPerApp', 'externalApiAccess'];

describe('dashboard usage reports: sign-ins, sessions and external API calls', () => {
  let w: AdminWorld;

  before(async () => {
    w = await buildAdminWorld();
  });

  describe('GET /api/v1/admin/dashboard/loginLastHours', () => {
    before(async () => {
      // The window at NOW (10:20:30 UTC) is 02:00:00.000 up to 10:20:30.000.
      await signIn(w, at('2001-06-15T01:59:59.999Z'));
      await signIn(w, at('2001-06-15T02:00:00.000Z'));
      await signIn(w, at('2001-06-15T02:30:00.000Z'));
      await signIn(w, at('2001-06-15T02:59:59.999Z'), 'Success', 'Microsoft');
      await signIn(w, at('2001-06-15T05:10:00.000Z'));
      await signIn(w, at('2001-06-15T05:15:00.000Z'), 'Failure');
      await signIn(w, at('2001-06-15T06:00:00.000Z'), 'UserLocked');
      await signIn(w, at('2001-06-15T10:00:00.000Z'));
      await signIn(w, NOW);
      await signIn(w, ms(NOW, 1));
    });

    it('counts the successes of each UTC hour, nine points ending with the hour under way, empty hours at 0', async () => {
      const res = await getAt(w, NOW, 'loginLastHours');

      expect(res.status).to.equal(200);
      expect(res.headers['cache-control']).to.equal('private, no-store');
      expect(res.body).to.deep.equal([
        { hour: '2001-06-15T02:00:00.000Z', count: 3 },
        { hour: '2001-06-15T03:00:00.000Z', count: 0 },
        { hour: '2001-06-15T04:00:00.000Z', count: 0 },
        { hour: '2001-06-15T05:00:00.000Z', count: 1 },
        { hour: '2001-06-15T06:00:00.000Z', count: 0 },
        { hour: '2001-06-15T07:00:00.000Z', count: 0 },
        { hour: '2001-06-15T08:00:00.000Z', count: 0 },
        { hour: '2001-06-15T09:00:00.000Z', count: 0 },
        { hour: '2001-06-15T10:00:00.000Z', count: 2 },
      ]);
    });

    it('moves the window with the clock: an hour later the first hour has left and the sign-in after NOW is in', async () => {
      const res = await getAt(w, at('2001-06-15T11:00:00.000Z'), 'loginLastHours');

      expect(res.body.map((point: { hour: string }) => point.hour)).to.deep.equal(
        ['03', '04', '05', '06', '07', '08', '09', '10', '11'].map((hour) => `2001-06-15T${hour}:00:00.000Z`),
      );
      expect(res.body.map((point: { count: number }) => point.count)).to.deep.equal([0, 0, 1, 0, 0, 0, 0, 3, 0]);
    });

    it('starts at the first instant of an hour when the clock is on it', async () => {
      const res = await getAt(w, at('2001-06-15T10:00:00.000Z'), 'loginLastHours');

      expect(res.body[0]).to.deep.equal({ hour: '2001-06-15T02:00:00.000Z', count: 3 });
      expect(res.body[8]).to.deep.equal({ hour: '2001-06-15T10:00:00.000Z', count: 1 });
    });

    it('on the real clock, counts a sign-in of a minute ago in the hour it belongs to', async () => {
      const minuteAgo = new Date(Date.now() - 60_000);
      const before = await call(w, 'get', '/dashboard/loginLastHours');
      await signIn(w, minuteAgo);
      const res = await call(w, 'get', '/dashboard/loginLastHours');

      expect(res.status).to.equal(200);
      expect(res.body).to.have.length(9);
      const hour = new Date(Math.floor(minuteAgo.getTime() / 3_600_000) * 3_600_000).toISOString();
      const count = (body: Array<{ hour: string; count: number }>) => body.find((point) => point.hour === hour)?.count;
      expect(count(res.body)).to.equal(count(before.body)! + 1);
      const hours = res.body.map((point: { hour: string }) => Date.parse(point.hour));
      expect(hours.slice(1).map((value: number, i: number) => value - hours[i])).to.deep.equal(Array(8).fill(3_600_000));
      expect(Date.now() - hours[8]).to.be.within(0, 3_600_000 + 5_000);
    });
  });

  describe('GET /api/v1/admin/dashboard/connectedPerApp', () => {
    const X = { id: '7b0a5a2e-0000-4000-8000-000000000001', name: 'xavier@example.com' };
    const Y = { id: '7b0a5a2e-0000-4000-8000-000000000002', name: 'yvonne@example.com' };
    const Z = { id: '7b0a5a2e-0000-4000-8000-000000000003', name: 'zoe@example.com' };
    let crm: Application;
    let erp: Application;

    before(async () => {
      crm = await buildApplication(w.context.dataSource, { displayName: 'Customer relations' });
      erp = await buildApplication(w.context.dataSource, { displayName: 'Accounting' });
      // The window at NOW is 09:50:30.000 up to 10:20:30.000.
      await session(w, ms(NOW, -30 * 60_000), crm.name, X);
      await session(w, at('2001-06-15T10:00:00Z'), crm.name, X);
      await session(w, at('2001-06-15T10:10:00Z'), crm.name, Y);
      await session(w, ms(NOW, -30 * 60_000 - 1), crm.name, Z);
      await session(w, ms(NOW, 1), crm.name, Z);
      await session(w, at('2001-06-15T10:05:00Z'), erp.name, X);
      // Rows written without a user id count by their user name, whatever its case.
      await session(w, at('2001-06-15T10:06:00Z'), erp.name, { id: null, name: 'Legacy' });
      await session(w, at('2001-06-15T10:07:00Z'), erp.name, { id: null, name: 'legacy' });
      await session(w, at('2001-06-15T10:08:00Z'), 'retired-app', Y);
    });

    it('counts distinct users per application in the last 30 minutes, the edge included, most connected first', async () => {
      const res = await getAt(w, NOW, 'connectedPerApp');

      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([
        { applicationName: erp.name, displayName: 'Accounting', count: 2 },
        { applicationName: crm.name, displayName: 'Customer relations', count: 2 },
        { applicationName: 'retired-app', displayName: 'retired-app', count: 1 },
      ]);
    });

    it('forgets a session once it is more than 30 minutes old', async () => {
      const res = await getAt(w, ms(NOW, 1), 'connectedPerApp');

      // X's 09:50:30 row left the window; X is still counted through 10:00, and Z's row at NOW + 1 ms came in.
      expect(res.body.find((row: { applicationName: string }) => row.applicationName === crm.name)).to.deep.equal({
        applicationName: crm.name,
        displayName: 'Customer relations',
        count: 3,
      });
      const later = await getAt(w, at('2001-06-15T10:40:00.001Z'), 'connectedPerApp');
      expect(later.body).to.deep.equal([{ applicationName: crm.name, displayName: 'Customer relations', count: 1 }]);
    });

    it('answers an empty list when nobody is connected', async () => {
      const res = await getAt(w, at('2001-01-01T00:00:00Z'), 'connectedPerApp');

      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([]);
    });
  });

  describe('GET /api/v1/admin/dashboard/externalApiAccess', () => {
    before(async () => {
      await apiCall(w, at('2001-05-16T10:20:29.999Z'), 'GetEntities');
      await apiCall(w, at('2001-05-31T23:59:59.999Z'), 'InviteUsers');
      await apiCall(w, at('2001-06-01T00:00:00.000Z'), 'GetRoles');
      await apiCall(w, at('2001-06-10T12:00:00.000Z'), 'GetRoles');
      await apiCall(w, at('2001-06-15T10:20:30.000Z'), 'LockUser');
      await apiCall(w, at('2001-06-15T10:20:30.001Z'), 'LockUser');
    });

    it('counts the calls per entry between the two dates, both included, as the console writes them', async () => {
      const res = await getAt(w, NOW, `externalApiAccess?startDate=${encodeURIComponent('2001-06-01 00:00:00')}&endDate=${encodeURIComponent('2001-06-15 10:20:30')}`);

      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([
        { apiEntry: 'GetRoles', count: 2 },
        { apiEntry: 'LockUser', count: 1 },
      ]);
    });

    it('reads ISO 8601 dates with their offset', async () => {
      const res = await getAt(w, NOW, `externalApiAccess?startDate=${encodeURIComponent('2001-06-01T02:00:00+02:00')}&endDate=2001-06-15T10:20:29.999Z`);

      expect(res.body).to.deep.equal([{ apiEntry: 'GetRoles', count: 2 }]);
    });

    it('covers the last 30 days up to now when no date is given', async () => {
      const res = await getAt(w, NOW, 'externalApiAccess');

      expect(res.body).to.deep.equal([
        { apiEntry: 'GetRoles', count: 2 },
        { apiEntry: 'InviteUsers', count: 1 },
        { apiEntry: 'LockUser', count: 1 },
      ]);
    });

    it('refuses an end before the start, naming endDate', async () => {
      const res = await getAt(w, NOW, 'externalApiAccess?startDate=2001-06-02&endDate=2001-06-01');

      expect(res.status).to.equal(400);
      expect(res.body.errors).to.deep.equal([{ field: 'endDate', code: 'validation.invalid', message: 'endDate is not valid' }]);
    });

    it('refuses a start after now when no end is given, naming startDate', async () => {
      const res = await getAt(w, NOW, 'externalApiAccess?startDate=2001-06-16');

      expect(res.status).to.equal(400);
      expect(res.body.errors.map((error: { field: string }) => error.field)).to.deep.equal(['startDate']);
    });

    for (const [value, why] of [
      ['2001-02-30 00:00:00', 'a day the calendar does not have'],
      ['2001-06-01 24:00:00', 'an hour past 23'],
      ['yesterday', 'words'],
      ['2001-06-01T10:00:00+2', 'a malformed offset'],
    ] as const) {
      it(`refuses ${why} as a date with a 400 naming the field`, async () => {
        const res = await getAt(w, NOW, `externalApiAccess?startDate=${encodeURIComponent(value)}`);

        expect(res.status).to.equal(400);
        expect(res.body.code).to.equal('errors.validation');
        expect(res.body.errors.map((error: { field: string }) => error.field)).to.deep.equal(['startDate']);
      });
    }
  });

  describe('who may read the reports', () => {
    for (const report of REPORTS) {
      it(`${report}: refused with 403 to a Manager, an AreaAdministrator and a plain user; 401 without a token`, async () => {
        for (const persona of ['manager', 'areaAdmin'] as const) {
          const res = await call(w, 'get', `/dashboard/${report}`, { as: persona });
          expect(res.status, persona).to.equal(403);
          expect(res.body.message).to.equal('You do not have permission to perform this action');
        }
        const plainToken = await mintAccessToken(w.context, w.key, { sub: w.callers.admin.id, roles: ['User'] });
        const plain = await request(w.server).get(`/api/v1/admin/dashboard/${report}`).set('Authorization', `Bearer ${plainToken}`);
        expect(plain.status).to.equal(403);
        const anonymous = await request(w.server).get(`/api/v1/admin/dashboard/${report}`);
        expect(anonymous.status).to.equal(401);
      });

      it(`${report}: answered to a TenantAdministrator and to God`, async () => {
        for (const persona of ['tenantAdmin', 'god'] as const) {
          expect((await call(w, 'get', `/dashboard/${report}`, { as: persona })).status, persona).to.equal(200);
        }
      });
    }
  });
});

describe('dashboard administrator reports: per application and per area', () => {
  let w: AdminWorld;
  let areaC: Area;
  let child: Tenant;
  let crm: Application;
  let erp: Application;
  let wiki: Application;
  const people: Record<string, User> = {};

  before(async () => {
    w = await buildAdminWorld({ areaA: { name: unique('Alpha') }, areaB: { name: unique('Bravo') } });
    const db = w.context.dataSource;
    areaC = await buildArea(db, { name: unique('Charlie') });
    child = await buildTenant(db, { areaId: w.areaA.id, parentId: w.tenantA.id });
    crm = await buildApplication(db, { displayName: 'CRM', roles: ['Administrator', 'Reader', 'SubAdministrator'] });
    erp = await buildApplication(db, { displayName: 'ERP', roles: ['Administrator'] });
    wiki = await buildApplication(db, { displayName: 'Wiki', roles: ['Editor'] });
    const admin = (application: Application) => application.roleByName.Administrator!;

    // The world's administrator (area A) holds the Identity application's Administrator role in the Global tenant.
    people.direct = await userIn(w, w.areaB); // crm Administrator in Global, directly and through a group
    people.grouped = await userIn(w, areaC); // crm Administrator in Global through a group only
    people.erp = await userIn(w, w.areaB); // erp Administrator in Global
    people.inherited = await userIn(w, w.areaA); // crm Administrator in tenant A, inheritable
    people.local = await userIn(w, w.areaA); // crm Administrator in tenant A, not inheritable
    people.childOwn = await userIn(w, w.areaB); // crm Administrator in the child tenant
    people.reader = await userIn(w, areaC); // crm Reader in Global
    people.sub = await userIn(w, areaC); // crm SubAdministrator in Global: contains the word, is not the role

    const admins = await buildGroup(db, { areaId: areaC.id, members: [people.direct, people.grouped] });
    await grant(db, { tenant: GLOBAL_TENANT_ID, user: people.direct, roles: [admin(crm)] });
    await grant(db, { tenant: GLOBAL_TENANT_ID, group: admins, roles: [admin(crm)] });
    await grant(db, { tenant: GLOBAL_TENANT_ID, user: people.erp, roles: [admin(erp)] });
    await grant(db, { tenant: w.tenantA, user: people.inherited, roles: [admin(crm)], inheritable: true });
    await grant(db, { tenant: w.tenantA, user: people.local, roles: [admin(crm)], inheritable: false });
    await grant(db, { tenant: child, user: people.childOwn, roles: [admin(crm)] });
    await grant(db, { tenant: GLOBAL_TENANT_ID, user: people.reader, roles: [crm.roleByName.Reader!] });
    await grant(db, { tenant: GLOBAL_TENANT_ID, user: people.sub, roles: [crm.roleByName.SubAdministrator!] });
  });

  const area = (a: Area, count: number) => ({ areaId: a.id, areaName: a.name, count });

  describe('GET /api/v1/admin/dashboard/adminPerApp', () => {
    it('counts the holders of each application’s Administrator role in the Global tenant, a user in a group counted once', async () => {
      const res = await call(w, 'get', '/dashboard/adminPerApp');

      expect(res.status).to.equal(200);
      expect(res.headers['cache-control']).to.equal('private, no-store');
      // Applications without an Administrator role (Wiki) are not in the chart; one nobody holds (none here) would show 0.
      expect(res.body).to.deep.equal([
        { applicationId: crm.id, applicationName: crm.name, displayName: 'CRM', count: 2 },
        { applicationId: erp.id, applicationName: erp.name, displayName: 'ERP', count: 1 },
        { applicationId: w.identity.id, applicationName: 'identity', displayName: 'Identity', count: 1 },
      ]);
    });

    it('shows an application whose Administrator role nobody holds with 0, and follows a new grant at once', async () => {
      const db = w.context.dataSource;
      const fresh = await buildApplication(db, { displayName: 'Zeta', roles: ['Administrator'] });
      const before = await call(w, 'get', '/dashboard/adminPerApp');
      expect(before.body.find((row: { applicationId: string }) => row.applicationId === fresh.id)).to.deep.include({ count: 0 });

      const holder = await userIn(w, areaC);
      await grant(db, { tenant: GLOBAL_TENANT_ID, user: holder, roles: [fresh.roleByName.Administrator!] });
      const after = await call(w, 'get', '/dashboard/adminPerApp');
      expect(after.body.find((row: { applicationId: string }) => row.applicationId === fresh.id)).to.deep.include({ count: 1 });

      // The other figures stay as the other tests expect them.
      await db.query('DELETE FROM users WHERE id = $1', [holder.id]);
      await db.query('DELETE FROM applications WHERE id = $1', [fresh.id]);
    });
  });

  describe('GET /api/v1/admin/dashboard/globalAdminPerAreas', () => {
    it('groups the Global tenant’s administrators of every application by the area of their account', async () => {
      const res = await call(w, 'get', '/dashboard/globalAdminPerAreas');

      expect(res.status).to.equal(200);
      // B: direct (crm), erp; A: the world's administrator (identity); C: grouped (crm). Reader and SubAdministrator are not administrators.
      expect(res.body).to.deep.equal([area(w.areaB, 2), area(w.areaA, 1), area(areaC, 1)]);
    });

    it('takes blank filters, as a cleared filter sends them, for none', async () => {
      const res = await call(w, 'get', '/dashboard/globalAdminPerAreas?tenant=&application=');

      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([area(w.areaB, 2), area(w.areaA, 1), area(areaC, 1)]);
    });

    it('filters by application', async () => {
      expect((await call(w, 'get', `/dashboard/globalAdminPerAreas?application=${crm.id}`)).body).to.deep.equal([area(w.areaB, 1), area(areaC, 1)]);
      expect((await call(w, 'get', `/dashboard/globalAdminPerAreas?application=${w.identity.id}`)).body).to.deep.equal([area(w.areaA, 1)]);
      expect((await call(w, 'get', `/dashboard/globalAdminPerAreas?application=${wiki.id}`)).body).to.deep.equal([]);
    });

    it('in a tenant, adds those granted there or inherited from an ancestor through an inheritable membership', async () => {
      // Tenant A: the Global ones, plus inherited and local (both granted there).
      expect((await call(w, 'get', `/dashboard/globalAdminPerAreas?tenant=${w.tenantA.id}`)).body).to.deep.equal([
        area(w.areaA, 3),
        area(w.areaB, 2),
        area(areaC, 1),
      ]);
      // Its child: the Global ones, inherited (from A) and childOwn; local's membership in A is not inheritable.
      expect((await call(w, 'get', `/dashboard/globalAdminPerAreas?tenant=${child.id}`)).body).to.deep.equal([
        area(w.areaB, 3),
        area(w.areaA, 2),
        area(areaC, 1),
      ]);
      // Tenant B, of another branch, has only the Global ones.
      expect((await call(w, 'get', `/dashboard/globalAdminPerAreas?tenant=${w.tenantB.id}`)).body).to.deep.equal([
        area(w.areaB, 2),
        area(w.areaA, 1),
        area(areaC, 1),
      ]);
    });

    it('combines the tenant and the application filters', async () => {
      const res = await call(w, 'get', `/dashboard/globalAdminPerAreas?tenant=${child.id}&application=${crm.id}`);

      expect(res.body).to.deep.equal([area(w.areaB, 2), area(w.areaA, 1), area(areaC, 1)]);
      const erpInB = await call(w, 'get', `/dashboard/globalAdminPerAreas?tenant=${w.tenantB.id}&application=${erp.id}`);
      expect(erpInB.body).to.deep.equal([area(w.areaB, 1)]);
    });

    it('answers 404 for a tenant or an application that does not exist, 400 for a malformed tenant id', async () => {
      const tenant = await call(w, 'get', '/dashboard/globalAdminPerAreas?tenant=0b0e4e6c-1111-4222-8333-944455556666');
      expect(tenant.status).to.equal(404);
      expect(tenant.body).to.deep.include({ code: 'users.tenant_not_found', message: 'Tenant not found' });

      const application = await call(w, 'get', '/dashboard/globalAdminPerAreas?application=no-such-app');
      expect(application.status).to.equal(404);
      expect(application.body).to.deep.include({ code: 'applications.not_found', message: 'Application not found' });

      const malformed = await call(w, 'get', '/dashboard/globalAdminPerAreas?tenant=42');
      expect(malformed.status).to.equal(400);
      expect(malformed.body.errors.map((error: { field: string }) => error.field)).to.deep.equal(['tenant']);

      const repeated = await call(w, 'get', `/dashboard/globalAdminPerAreas?tenant=${w.tenantA.id}&tenant=${w.tenantB.id}`);
      expect(repeated.status).to.equal(400);
    });
  });
});
