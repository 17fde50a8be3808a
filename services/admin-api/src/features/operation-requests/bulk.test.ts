import { randomBytes, randomUUID } from 'node:crypto';
import { GLOBAL_TENANT_ID, LANGUAGES, type Area, type JobHandler, type JobType, type Tenant, type User } from '@gatehouse/core';
import { buildApplication, buildArea, buildTenant, buildUser, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { binary, buildAdminWorld, xlsx, type AdminWorld, type Application } from '../../testing/admin-world.js';
import { jobNotification, withBackgroundJobs } from '../../testing/exports.js';
import { importResult, queuedJob, whenJobStarts } from '../../testing/jobs.js';
import { mintAccessToken } from '../../testing/tokens.js';
import { XLSX_MEDIA_TYPE, storeFile } from '../jobs/files.js';
import { jobHandlers } from '../../app.js';
import type { ImportResult } from '../users/excel/messages.js';
import { makeRequestable, waitingRequest } from './testing.js';

const PROFILE = '/api/v1/profile';
const REQUESTS_HEADER = ['Email', 'Application', 'Role'];
const FULL_HEADER = ['Email', 'First name', 'Last name', 'Language', 'Area', 'Phone number', 'Work position', 'Manager', 'Departments', 'Application', 'Role'];

type Kind = 'bulk_insert' | 'full_bulk_insert';

interface RequestRow {
  id: string;
  type: string;
  status: string;
  tenant_id: string;
  created_by_id: string;
  payload: { roles: string[]; isInheritable: boolean };
}

describe('My Clients bulk uploads of operation requests (/api/v1/profile/…/operationRequests)', function () {
  this.timeout(180_000);
  let w: AdminWorld;
  let app: Application;
  /** The consultants' tenant, and one they do not consult for. */
  let tenant: Tenant;
  let other: Tenant;
  let consultant: User;
  /** A consultant of the tenant of an approving category: told of each new request. */
  let approver: User;
  let defaultArea: Area;
  let systemArea: Area;

  const db = () => w.context.dataSource;
  const role = (name: string) => app.roleByName[name]!;
  const tag = () => randomBytes(4).toString('hex');

  /** A bearer header for `user`, with an access token carrying `roles` (IdentityConsultant unless told). */
  const auth = async (user: User, roles: string[] = ['IdentityConsultant']) => `Bearer ${await mintAccessToken(w.context, w.key, { sub: user.id, roles })}`;

  const template = async (path: string, options: { user?: User; roles?: string[]; lang?: string } = {}) =>
    request(w.server)
      .get(`${PROFILE}/template/${path}`)
      .set('Authorization', await auth(options.user ?? consultant, options.roles))
      .set('Accept-Language', options.lang ?? 'en')
      .buffer(true)
      .parse(binary);

  const upload = async (kind: Kind, tenantId: string, file: Buffer, options: { user?: User; roles?: string[]; lang?: string; name?: string; token?: string } = {}) =>
    request(w.server)
      .post(`${PROFILE}/${kind}/operationRequests/${tenantId}`)
      .set('Authorization', options.token ? `Bearer ${options.token}` : await auth(options.user ?? consultant, options.roles))
      .set('Accept-Language', options.lang ?? 'en')
      .attach('file', file, options.name ?? 'requests.xlsx');

  const clientIn = (area: Area = w.areaA, overrides: Partial<User> = {}) => buildUser(db(), { areaId: area.id, ...overrides });

  const requestsOf = async (userId: string): Promise<RequestRow[]> =>
    db().query(`SELECT id, type, status, tenant_id, created_by_id, payload FROM operation_requests WHERE user_id = $1 ORDER BY created_at, id`, [userId]);

  /** The names of the roles a request names, sorted. */
  const named = (request: RequestRow) => request.payload.roles.map((id) => Object.keys(app.roleByName).find((name) => role(name).id === id)).sort();

  const ownRoles = async (userId: string, tenantId: string): Promise<string[]> =>
    (
      await db().query(
        `SELECT r.name FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id JOIN roles r ON r.id = tmr.role_id
          WHERE tm.user_id = $1 AND tm.tenant_id = $2 ORDER BY r.name`,
        [userId, tenantId],
      )
    ).map((row: { name: string }) => row.name);

  /** The jobs and kept uploads of a user, to show a refused upload leaves neither. */
  const leftovers = async (userId: string) => {
    const [jobs] = await db().query(`SELECT count(*)::int AS n FROM background_jobs WHERE user_id = $1`, [userId]);
    const [files] = await db().query(`SELECT count(*)::int AS n FROM stored_files WHERE owner_id = $1`, [userId]);
    return { jobs: jobs.n as number, files: files.n as number };
  };

  const rowOf = (sheet: ExcelJS.Worksheet, n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
  const valuesColumn = (sheet: ExcelJS.Worksheet, n: number) =>
    sheet
      .getColumn(n)
      .values.slice(2)
      .filter((v) => v !== null && v !== undefined)
      .map(String);

  before(async () => {
    w = await buildAdminWorld();
    app = await buildApplication(db(), { roles: ['Reader', 'Writer', 'Hidden'], displayName: `CRM ${tag()}` });
    await makeRequestable(w.context, [role('Reader').id, role('Writer').id]);
    // Flagged, but an operation request never gives it.
    await makeRequestable(w.context, [w.identity.roleByName.Administrator!.id]);
    tenant = await buildTenant(db(), { areaId: w.areaA.id });
    other = await buildTenant(db(), { areaId: w.areaA.id });
    consultant = await clientIn(w.areaA, { firstName: 'Carla', lastName: 'Consultant' });
    await grant(db(), { tenant, user: consultant, roles: [w.identity.roleByName.IdentityConsultant!] });
    approver = await clientIn(w.areaA, { internalCategory: 'Team Leader', language: 'en' });
    await grant(db(), { tenant, user: approver, roles: [w.identity.roleByName.IdentityConsultant!] });
    const [existing] = await db().query(`SELECT id, name FROM areas WHERE is_default`);
    defaultArea = existing ?? (await buildArea(db(), { name: `default-${tag()}`, isDefault: true }));
    systemArea = await buildArea(db(), { name: `system-${tag()}`, isSystem: true });
  });

  describe('GET /api/v1/profile/template/operationRequests', () => {
    it('answers an .xlsx with the columns (one row per e-mail and role) and the requestable roles, never God or Administrator', async () => {
      const res = await template('operationRequests');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal(XLSX_MEDIA_TYPE);
      expect(res.headers['content-disposition']).to.equal('attachment; filename="OperationRequestsTemplate.xlsx"');
      const workbook = await new ExcelJS.Workbook().xlsx.load(res.body);
      const [sheet, values] = workbook.worksheets;
      expect(sheet!.name).to.equal('Requests');
      expect(rowOf(sheet!, 1)).to.deep.equal(REQUESTS_HEADER);
      expect(sheet!.getCell('A1').note).to.match(/existing user.*One row per role/);
      expect(values!.name).to.equal('Values');
      expect(rowOf(values!, 1)).to.deep.equal(['Application', 'Display name', 'Role']);
      const roles = valuesColumn(values!, 1).map((name, i) => `${name}:${valuesColumn(values!, 3)[i]}`);
      expect(roles).to.include.members([`${app.name}:Reader`, `${app.name}:Writer`]);
      expect(roles).to.not.include(`${app.name}:Hidden`);
      expect(roles.filter((r) => r.startsWith('identity:'))).to.deep.equal([]);
      expect(valuesColumn(values!, 2)).to.include(app.displayName);
    });

    it('writes the headers and sheets in the caller’s language', async () => {
      const workbook = await new ExcelJS.Workbook().xlsx.load((await template('operationRequests', { lang: 'fr' })).body);
      const [sheet, values] = workbook.worksheets;
      expect(sheet!.name).to.equal('Demandes');
      expect(rowOf(sheet!, 1)).to.deep.equal(['E-mail', 'Application', 'Rôle']);
      expect(values!.name).to.equal('Valeurs');
    });

    it('answers 403 to a caller who is no consultant, 401 without a token', async () => {
      for (const roles of [['Manager'], ['ServiceManager'], ['AreaAdministrator'], []]) {
        const res = await template('operationRequests', { user: w.callers.manager, roles });
        expect(res.status, roles.join()).to.equal(403);
      }
      expect((await request(w.server).get(`${PROFILE}/template/operationRequests`)).status).to.equal(401);
    });
  });

  describe('GET /api/v1/profile/template/fullUserWithOperationRequest', () => {
    it('adds the new user’s columns, with the languages and the areas (never a system one) to pick from', async () => {
      const res = await template('fullUserWithOperationRequest');
      expect(res.status).to.equal(200);
      expect(res.headers['content-disposition']).to.equal('attachment; filename="FullUserWithOperationRequestTemplate.xlsx"');
      const workbook = await new ExcelJS.Workbook().xlsx.load(res.body);
      const [sheet, values] = workbook.worksheets;
      expect(sheet!.name).to.equal('Users and requests');
      expect(rowOf(sheet!, 1)).to.deep.equal(FULL_HEADER);
      expect(rowOf(values!, 1)).to.deep.equal(['Application', 'Display name', 'Role', 'Language', 'Area']);
      expect(valuesColumn(values!, 4)).to.deep.equal([...LANGUAGES]);
      expect(valuesColumn(values!, 5)).to.include.members([defaultArea.name, w.areaA.name]);
      expect(valuesColumn(values!, 5)).to.not.include(systemArea.name);
      const de = await new ExcelJS.Workbook().xlsx.load((await template('fullUserWithOperationRequest', { lang: 'de' })).body);
      expect(rowOf(de.worksheets[0]!, 1).slice(0, 3)).to.deep.equal(['E-Mail', 'Vorname', 'Nachname']);
    });
  });

  describe('POST /api/v1/profile/bulk_insert/operationRequests/{tenantId}', () => {
    withBackgroundJobs(() => w);

    it('makes one waiting BulkInsert request per user with the roles they hold and the rows’ roles, and reports bad rows by their Excel row', async () => {
      const [ann, bob] = [await clientIn(), await clientIn()];
      await grant(db(), { tenant, user: bob, roles: [role('Writer'), role('Hidden')] });
      const file = await xlsx([
        REQUESTS_HEADER,
        [ann.userName, app.name, 'Reader'], // 2: requested
        [ann.userName.toUpperCase(), app.displayName, 'writer'], // 3: the same request (display name, any case)
        [bob.email, app.name, 'Reader'], // 4: requested; Bob keeps Writer
        [bob.email, app.name, 'Writer'], // 5: already held
        ['nobody@example.com', app.name, 'Reader'], // 6: unknown user
        [ann.userName, 'no-such-app', 'Reader'], // 7: unknown application
        [ann.userName, app.name, 'Nope'], // 8: unknown role
        [ann.userName, app.name, 'Hidden'], // 9: not requestable
        [ann.userName, 'identity', 'Administrator'], // 10: never requested
        [ann.userName, app.name, 'Reader'], // 11: same as row 2
        [null, app.name, 'Reader'], // 12: no e-mail
      ]);
      const res = await upload('bulk_insert', tenant.id, file);
      const result = await importResult(w.context, res);
      expect(result).to.deep.equal({
        success: false,
        totalElements: 11,
        importedElements: 3,
        errors: [
          { row: 6, reason: 'No user nobody@example.com was found.' },
          { row: 7, reason: 'No application no-such-app was found.' },
          { row: 8, reason: `The application ${app.name} has no role Nope.` },
          { row: 9, reason: 'The role Hidden cannot be requested through an operation request' },
          { row: 10, reason: 'The role Administrator cannot be requested through an operation request' },
          { row: 12, reason: 'The e-mail is empty.' },
        ],
        warnings: [
          { row: 5, reason: `The role Writer of ${app.name} is already held in ${tenant.title}: nothing to request.` },
          { row: 11, reason: 'Same as row 2: skipped.' },
        ],
      });

      const [annRequest, ...more] = await requestsOf(ann.id);
      expect(more).to.deep.equal([]);
      expect(annRequest).to.deep.include({ type: 'BulkInsert', status: 'WaitingForApprover', tenant_id: tenant.id, created_by_id: consultant.id });
      expect(named(annRequest!)).to.deep.equal(['Reader', 'Writer']);
      const [bobRequest] = await requestsOf(bob.id);
      expect(named(bobRequest!)).to.deep.equal(['Reader', 'Writer']);
      // Waiting: nothing applied yet, Hidden untouched.
      expect(await ownRoles(ann.id, tenant.id)).to.deep.equal([]);
      expect(await ownRoles(bob.id, tenant.id)).to.deep.equal(['Hidden', 'Writer']);
      const [history] = await db().query(`SELECT status, request_type, actor_id FROM operation_request_history WHERE operation_request_id = $1`, [annRequest!.id]);
      expect(history).to.deep.equal({ status: 'WaitingForApprover', request_type: 'BulkInsert', actor_id: consultant.id });

      // The approvers are told of each request, the requester of the import's result.
      const told = await db().query(`SELECT description FROM notifications WHERE user_id = $1 AND type = 'OperationRequest'`, [approver.id]);
      expect(told.map((n: { description: string }) => n.description)).to.include.members([
        `Carla Consultant asks for roles for ${ann.email} in ${tenant.title}: your approval is needed`,
        `Carla Consultant asks for roles for ${bob.email} in ${tenant.title}: your approval is needed`,
      ]);
      const notification = await jobNotification(w, consultant.id, 'BulkInsertPermisionRequestForTenant', (n) => JSON.stringify(n.data) === JSON.stringify(result));
      expect(notification.description).to.match(/3 of 11 rows applied/);
      const [log] = await db().query(`SELECT tenant_id, metadata FROM system_logs WHERE operation = 'BulkInsert' AND user_id = $1 ORDER BY id DESC LIMIT 1`, [consultant.id]);
      expect(log).to.deep.equal({
        tenant_id: tenant.id,
        metadata: { type: 'BulkInsertPermisionRequestForTenant', fileName: 'requests.xlsx', tenantId: tenant.id, totalElements: 11, importedElements: 3, errors: 6, warnings: 2 },
      });
    });

    it('never approves a bulk request, not even an administrator’s; a user whose request already waits is a row error', async () => {
      const [dan, eve] = [await clientIn(), await clientIn()];
      await waitingRequest(w.context, { tenantId: tenant.id, userId: eve.id, roleIds: [role('Writer').id], createdById: approver.id });
      const file = await xlsx([REQUESTS_HEADER, [dan.email, app.name, 'Reader'], [eve.email, app.name, 'Reader']]);
      const result = await importResult(w.context, await upload('bulk_insert', tenant.id, file, { user: w.callers.admin, roles: ['Administrator'] }));
      expect(result).to.deep.include({ success: false, totalElements: 2, importedElements: 1 });
      expect(result.errors).to.deep.equal([{ row: 3, reason: 'A request for this identity in this tenant is already waiting for approval: edit it instead' }]);
      expect((await requestsOf(dan.id)).map((r) => r.status)).to.deep.equal(['WaitingForApprover']);
      expect(await ownRoles(dan.id, tenant.id)).to.deep.equal([]);
      expect((await requestsOf(eve.id)).map(named)).to.deep.equal([['Writer']]);
    });

    it('makes one request when the same file is uploaded twice at the same time; the other upload reports it waiting', async () => {
      const fay = await clientIn();
      const file = await xlsx([REQUESTS_HEADER, [fay.email, app.name, 'Reader']]);
      const [first, second] = await Promise.all([upload('bulk_insert', tenant.id, file), upload('bulk_insert', tenant.id, file)]);
      const results = await Promise.all([importResult(w.context, first), importResult(w.context, second)]);
      expect(results.map((r) => r.importedElements).sort()).to.deep.equal([0, 1]);
      expect(results.flatMap((r) => r.errors)).to.deep.equal([{ row: 2, reason: 'A request for this identity in this tenant is already waiting for approval: edit it instead' }]);
      expect((await requestsOf(fay.id)).map(named)).to.deep.equal([['Reader']]);
    });

    it('writes the row messages in the upload’s language', async () => {
      const result = await importResult(w.context, await upload('bulk_insert', tenant.id, await xlsx([REQUESTS_HEADER, ['nobody@example.com', app.name, 'Reader']]), { lang: 'fr' }));
      expect(result.errors).to.deep.equal([{ row: 2, reason: 'Aucun utilisateur nobody@example.com n’a été trouvé.' }]);
    });

    it('answers 404 for a tenant the consultant does not consult for, the Global tenant or no tenant, and keeps nothing', async () => {
      const file = await xlsx([REQUESTS_HEADER, [(await clientIn()).email, app.name, 'Reader']]);
      const before = await leftovers(consultant.id);
      for (const tenantId of [other.id, GLOBAL_TENANT_ID, randomUUID(), 'not-a-tenant']) {
        for (const kind of ['bulk_insert', 'full_bulk_insert'] as const) {
          const res = await upload(kind, tenantId, file);
          expect(res.status, `${kind} ${tenantId}`).to.equal(404);
          expect(res.body).to.include({ code: 'errors.not_found', message: 'Not found' });
        }
      }
      expect(await leftovers(consultant.id)).to.deep.equal(before);
    });

    it('answers 403 to a caller who is no consultant (a Manager, a service manager of the tenant), and keeps nothing', async () => {
      const manager = await clientIn();
      await grant(db(), { tenant, user: manager, roles: [w.identity.roleByName.ServiceManager!] });
      const file = await xlsx([REQUESTS_HEADER, [(await clientIn()).email, app.name, 'Reader']]);
      for (const roles of [['Manager'], ['ServiceManager']]) {
        const res = await upload('bulk_insert', tenant.id, file, { user: manager, roles });
        expect(res.status).to.equal(403);
        expect(res.body.message).to.equal('You do not have permission to perform this action');
      }
      expect(await leftovers(manager.id)).to.deep.equal({ jobs: 0, files: 0 });
    });

    it('accepts the portal’s own session token, with the consultant’s roles as the database holds them', async () => {
      const id = randomBytes(32).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      await db().query(
        `INSERT INTO oidc_model_instances (model, id, payload, grant_id, expires_at) VALUES ('AccessToken', $1, $2, $3, now() + interval '1 hour')`,
        [id, { kind: 'AccessToken', jti: id, accountId: consultant.id, clientId: w.context.config.oidc.portalClientId, grantId: `g-${id}`, scope: 'openid profile', iat: now, exp: now + 3600 }, `g-${id}`],
      );
      const target = await clientIn();
      const result = await importResult(w.context, await upload('bulk_insert', tenant.id, await xlsx([REQUESTS_HEADER, [target.email, app.name, 'Writer']]), { token: id }));
      expect(result).to.deep.include({ success: true, importedElements: 1 });
      expect((await upload('bulk_insert', other.id, await xlsx([REQUESTS_HEADER, [target.email, app.name, 'Reader']]), { token: id })).status).to.equal(404);
      const templateRes = await request(w.server).get(`${PROFILE}/template/operationRequests`).set('Authorization', `Bearer ${id}`);
      expect(templateRes.status).to.equal(200);
    });

    it('refuses at once a file that is not .xlsx, lacks columns or rows, in the caller’s language', async () => {
      const good = await xlsx([REQUESTS_HEADER, [(await clientIn()).email, app.name, 'Reader']]);
      const csv = await upload('bulk_insert', tenant.id, good, { name: 'requests.csv' });
      expect(csv.status).to.equal(400);
      expect(csv.body).to.include({ code: 'import.extension_not_allowed', message: 'Extension not allowed' });
      expect((await upload('bulk_insert', tenant.id, good, { name: 'requests.xls', lang: 'fr' })).body.message).to.equal('Extension non autorisée');
      const columns = await upload('bulk_insert', tenant.id, await xlsx([['Email'], ['someone@example.com']]));
      expect(columns.status).to.equal(400);
      expect(columns.body.message).to.equal('The first row of the file must name the columns; missing: Application, Role');
      const full = await upload('full_bulk_insert', tenant.id, good);
      expect(full.status).to.equal(400);
      expect(full.body.message).to.equal('The first row of the file must name the columns; missing: First name, Last name, Language, Area');
      const empty = await upload('bulk_insert', tenant.id, await xlsx([REQUESTS_HEADER]));
      expect(empty.body).to.include({ code: 'import.no_rows' });
      expect((await upload('bulk_insert', tenant.id, randomBytes(2 * 1024 * 1024 + 1))).status).to.equal(413);
    });

    it('imports nothing when the consultant no longer consults for the tenant by the time the job runs', async () => {
      const mover = await clientIn();
      await grant(db(), { tenant, user: mover, roles: [w.identity.roleByName.IdentityConsultant!] });
      await grant(db(), { tenant: other, user: mover, roles: [w.identity.roleByName.IdentityConsultant!] });
      const target = await clientIn();
      const undo = await whenJobStarts(w.context, mover.id, { statement: `DELETE FROM tenant_members WHERE user_id = '${mover.id}' AND tenant_id = '${tenant.id}';` });
      try {
        const res = await upload('bulk_insert', tenant.id, await xlsx([REQUESTS_HEADER, [target.email, app.name, 'Reader']]), { user: mover });
        expect(await queuedJob(w.context, res)).to.include({ status: 'Failed', error: 'You no longer consult for this tenant, or it was deleted: nothing was imported.' });
      } finally {
        await undo();
      }
      expect(await requestsOf(target.id)).to.deep.equal([]);
    });
  });

  describe('POST /api/v1/profile/full_bulk_insert/operationRequests/{tenantId}', () => {
    withBackgroundJobs(() => w);

    const fullRow = (email: string | null, details: Array<string | null>, application: string, roleName: string) => {
      const cells = [...details, ...Array(8).fill(null)].slice(0, 8);
      return [email, ...cells, application, roleName];
    };

    it('creates each new user as a draft of the tenant with the My Clients rules, reuses existing users, and requests their roles', async () => {
      const t = tag();
      const nina = `nina-${t}@client.example`;
      const existing = await clientIn(w.areaA, { firstName: 'Old', lastName: 'Name' });
      const file = await xlsx([
        FULL_HEADER,
        fullRow(nina, ['Nina', 'New', 'FR', defaultArea.name.toUpperCase(), '+34 600 000 000', 'Buyer', 'Mia Boss', 'Sales; Support'], app.name, 'Reader'), // 2: created
        fullRow(nina.toUpperCase(), [], app.name, 'Writer'), // 3: the same user and request
        fullRow(existing.email, ['Other', 'Person', 'en', w.areaA.name], app.name, 'Reader'), // 4: reused, details not applied
        fullRow(`free-${t}@gmail.com`, ['Free', 'Mail', 'en', defaultArea.name], app.name, 'Reader'), // 5: free-mail address
        fullRow(`nofirst-${t}@client.example`, [null, 'Last', 'en', defaultArea.name], app.name, 'Reader'), // 6: no first name
        fullRow(`nofirst-${t}@client.example`, [], app.name, 'Writer'), // 7: its user is not created
        fullRow(`bad-${t}@client.example`, ['Ola', 'Bad', 'xx', 'No such area'], app.name, 'Reader'), // 8: unknown language and area
        fullRow(`title-${t}@client.example`, ['Jo', 'Title', 'en', w.areaA.name, null, 'Buyer'], app.name, 'Reader'), // 9: work position outside the default area
        fullRow(nina, ['Nina', 'Other', 'fr', defaultArea.name], app.name, 'Writer'), // 10: other details for row 2's user
      ]);
      const result = await importResult(w.context, await upload('full_bulk_insert', tenant.id, file));
      expect(result).to.deep.equal({
        success: false,
        totalElements: 9,
        importedElements: 3,
        errors: [
          { row: 5, reason: `Email: "free-${t}@gmail.com" is not a valid e-mail address.` },
          { row: 6, reason: 'Please input your first name!' },
          { row: 7, reason: `The user nofirst-${t}@client.example could not be created (see row 6).` },
          { row: 8, reason: `Language: unknown language "xx": use one of ${LANGUAGES.join(', ')}. Area: unknown area "No such area".` },
          { row: 9, reason: 'Work position can only be set for users of the default area or of the Customers area' },
          { row: 10, reason: `Row 2 gives other details for the user ${nina}.` },
        ],
        warnings: [{ row: 4, reason: `A user ${existing.email} already exists: the request is for them, and the details of this row are not applied.` }],
      });

      const [created] = await db().query(
        `SELECT id, user_name, email, first_name, last_name, language, area_id, phone_number, job_title, manager, teams, draft, created_for_tenant_id, user_type FROM users WHERE normalized_email = $1`,
        [nina],
      );
      expect(created).to.deep.include({
        user_name: nina,
        email: nina,
        first_name: 'Nina',
        last_name: 'New',
        language: 'fr',
        area_id: defaultArea.id,
        phone_number: '+34 600 000 000',
        job_title: 'Buyer',
        manager: 'Mia Boss',
        draft: true,
        created_for_tenant_id: tenant.id,
        user_type: 2,
      });
      expect(created.teams).to.deep.equal(['Sales', 'Support']);
      const [ninaRequest, ...more] = await requestsOf(created.id);
      expect(more).to.deep.equal([]);
      expect(ninaRequest).to.deep.include({ type: 'BulkInsert', status: 'WaitingForApprover', created_by_id: consultant.id });
      expect(named(ninaRequest!)).to.deep.equal(['Reader', 'Writer']);

      expect((await requestsOf(existing.id)).map(named)).to.deep.equal([['Reader']]);
      const [kept] = await db().query(`SELECT first_name, last_name, area_id FROM users WHERE id = $1`, [existing.id]);
      expect(kept).to.deep.equal({ first_name: 'Old', last_name: 'Name', area_id: w.areaA.id });
      const refused = await db().query(`SELECT email FROM users WHERE email = ANY($1::text[])`, [[`free-${t}@gmail.com`, `nofirst-${t}@client.example`, `bad-${t}@client.example`, `title-${t}@client.example`]]);
      expect(refused).to.deep.equal([]);
    });

    it('creates a new user whose optional cells are blank, and names the column and the value of a bad cell', async () => {
      const t = tag();
      const plain = `plain-${t}@client.example`;
      const file = await xlsx([
        FULL_HEADER,
        fullRow(plain, ['Pat', 'Plain', 'en', defaultArea.name, null, null, null, null], app.name, 'Reader'), // 2: created
        fullRow(`lang-${t}@client.example`, ['Lou', 'Lang', 'english', defaultArea.name], app.name, 'Reader'), // 3: bad language
      ]);
      const result = await importResult(w.context, await upload('full_bulk_insert', tenant.id, file));
      expect(result).to.deep.equal({
        success: false,
        totalElements: 2,
        importedElements: 1,
        errors: [{ row: 3, reason: `Language: unknown language "english": use one of ${LANGUAGES.join(', ')}.` }],
        warnings: [],
      });
      const [created] = await db().query(`SELECT phone_number, job_title, manager, teams, draft FROM users WHERE normalized_email = $1`, [plain]);
      expect(created).to.deep.include({ phone_number: null, job_title: null, manager: null, draft: true });
      expect(created.teams ?? []).to.deep.equal([]);
    });

    it('answers 403 to a caller who is no consultant', async () => {
      const file = await xlsx([FULL_HEADER, fullRow(`x-${tag()}@client.example`, ['A', 'B', 'en', defaultArea.name], app.name, 'Reader')]);
      const res = await upload('full_bulk_insert', tenant.id, file, { user: w.callers.manager, roles: ['Manager'] });
      expect(res.status).to.equal(403);
    });
  });

  describe('an import job taken up again after its node stopped mid-run', () => {
    /** A job of the consultant's as the queue leaves it after an attempt that stopped: Running, started. */
    const interruptedJob = async (type: JobType): Promise<string> =>
      (await db().query(`INSERT INTO background_jobs (type, user_id, status, started_at) VALUES ($1, $2, 'Running', now()) RETURNING id`, [type, consultant.id]))[0].id;

    /** One attempt of the job, as the queue runs it, on an upload of `file`. */
    const attempt = async (type: JobType, jobId: string, number: number, file: Buffer): Promise<ImportResult> => {
      const fileId = await storeFile(w.context, { ownerId: consultant.id, fileName: 'retried.xlsx', mediaType: XLSX_MEDIA_TYPE, bytes: file });
      const handler = jobHandlers[type]!(w.context) as JobHandler;
      const result = await handler({ jobId, type, payload: { fileId, language: 'en', params: { tenantId: tenant.id } }, userId: consultant.id, attempt: number, progress: async () => undefined });
      return result as unknown as ImportResult;
    };

    it('makes no request twice: the users the stopped attempt reached are warnings, a request of before the job still an error', async () => {
      const [ann, bob, carl] = [await clientIn(), await clientIn(), await clientIn()];
      // A request the same consultant made before the job: not the job's own.
      await waitingRequest(w.context, { tenantId: tenant.id, userId: carl.id, roleIds: [role('Writer').id], createdById: consultant.id });
      const jobId = await interruptedJob('BulkInsertPermisionRequestForTenant');
      const rows = [
        [ann.email, app.name, 'Reader'],
        [ann.email, app.name, 'Writer'],
        [bob.email, app.name, 'Reader'],
        [carl.email, app.name, 'Reader'],
      ];
      // The first attempt got through Ann's rows, then its node stopped.
      await attempt('BulkInsertPermisionRequestForTenant', jobId, 1, await xlsx([REQUESTS_HEADER, ...rows.slice(0, 2)]));
      const result = await attempt('BulkInsertPermisionRequestForTenant', jobId, 2, await xlsx([REQUESTS_HEADER, ...rows]));
      expect(result).to.deep.equal({
        success: false,
        totalElements: 4,
        importedElements: 3,
        errors: [{ row: 5, reason: 'A request for this identity in this tenant is already waiting for approval: edit it instead' }],
        warnings: [
          { row: 2, reason: 'Already applied before the import was interrupted and resumed.' },
          { row: 3, reason: 'Already applied before the import was interrupted and resumed.' },
        ],
      });
      expect((await requestsOf(ann.id)).map(named)).to.deep.equal([['Reader', 'Writer']]);
      expect((await requestsOf(bob.id)).map(named)).to.deep.equal([['Reader']]);
      expect((await requestsOf(carl.id)).map(named)).to.deep.equal([['Writer']]);
    });

    it('creates no user twice in the full variant, and requests once', async () => {
      const email = `again-${tag()}@client.example`;
      const file = await xlsx([FULL_HEADER, [email, 'Al', 'Again', 'en', defaultArea.name, null, null, null, null, app.name, 'Reader']]);
      const jobId = await interruptedJob('BulkInsertUserAndPermisionRequestForTenant');
      const first = await attempt('BulkInsertUserAndPermisionRequestForTenant', jobId, 1, file);
      expect(first).to.deep.include({ success: true, importedElements: 1, warnings: [] });
      const second = await attempt('BulkInsertUserAndPermisionRequestForTenant', jobId, 2, file);
      expect(second).to.deep.equal({
        success: true,
        totalElements: 1,
        importedElements: 1,
        errors: [],
        warnings: [{ row: 2, reason: 'Already applied before the import was interrupted and resumed.' }],
      });
      const users = await db().query(`SELECT id FROM users WHERE normalized_email = $1`, [email]);
      expect(users).to.have.length(1);
      expect((await requestsOf(users[0].id)).map(named)).to.deep.equal([['Reader']]);
    });
  });
});
