import { GLOBAL_TENANT_ID } from '@gatehouse/core';
import { buildApplication, buildGroup, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { bearer, binary, buildAdminWorld, call, userIn, type AdminWorld } from '../../testing/admin-world.js';
import { storeFile } from './files.js';
import { startBackgroundJobs } from '../../app.js';
import type { BackgroundJobs } from './runtime.js';

async function waitForStatus(w: AdminWorld, id: string, status: string): Promise<Record<string, unknown>> {
  const until = Date.now() + 20_000;
  for (;;) {
    const [row] = (await w.context.dataSource.query('SELECT * FROM background_jobs WHERE id = $1', [id])) as Array<Record<string, unknown>>;
    if (row?.status === status) return row;
    if (Date.now() > until) throw new Error(`job ${id} is ${String(row?.status)}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The user's notification of a job type, once it has been written (it follows the job's end). */
async function waitForNotification(w: AdminWorld, userId: string, type: string): Promise<{ type: string; description: string; data: { fileUrl: string } }> {
  const until = Date.now() + 20_000;
  for (;;) {
    const [row] = (await w.context.dataSource.query('SELECT type, description, data FROM notifications WHERE user_id = $1 AND type = $2', [userId, type])) as Array<{
      type: string;
      description: string;
      data: { fileUrl: string };
    }>;
    if (row) return row;
    if (Date.now() > until) throw new Error(`no ${type} notification for ${userId}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('background jobs of the admin API', function () {
  this.timeout(60_000);
  let w: AdminWorld;
  let jobs: BackgroundJobs;

  before(async () => {
    w = await buildAdminWorld();
    jobs = await startBackgroundJobs(w.context, { timings: { pollingIntervalMs: 500, maintenanceIntervalMs: 1000, retryDelayMs: 100 }, prefix: `gatehouse-test-${Date.now()}` });
  });
  after(async () => jobs?.stop());

  it('queues the full admin report, builds it and notifies its requester with the file', async () => {
    const db = w.context.dataSource;
    const app = await buildApplication(db, { displayName: 'Payroll', roles: ['Administrator'] });
    const global = GLOBAL_TENANT_ID;
    const direct = await userIn(w, w.areaA, { userName: 'direct.admin', email: 'direct@example.com' });
    const member = await userIn(w, w.areaB, { userName: 'group.admin', email: 'group@example.com' });
    const group = await buildGroup(db, { name: 'Payroll admins', members: [member] });
    await grant(db, { tenant: global, user: direct, roles: [app.roleByName.Administrator!] });
    await grant(db, { tenant: global, group, roles: [app.roleByName.Administrator!] });

    const res = await call(w, 'post', '/dashboard/adminReport', { body: {}, lang: 'es' });
    expect(res.status).to.equal(202);
    const jobId = res.body.jobId as string;
    const done = await waitForStatus(w, jobId, 'Succeeded');
    expect(done.user_id).to.equal(w.callers.admin.id);
    expect(done.type).to.equal('AdminReport');
    const fileUrl = (done.result as { fileUrl: string }).fileUrl;

    const notification = await waitForNotification(w, w.callers.admin.id, 'AdminReport');
    expect(notification.data.fileUrl).to.equal(fileUrl);
    // In the language of the console that asked (Spanish), not the profile's (French by default).
    expect(notification.description).to.equal('Su informe completo de administradores está listo');

    const file = await request(w.server)
      .get(`/api/v1/admin/filestorage/downloadExcel?url=${fileUrl}`)
      .set('Authorization', await bearer(w))
      .buffer(true).parse((response, callback) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
    });
    expect(file.status).to.equal(200);
    expect(file.headers['content-disposition']).to.match(/attachment; filename="admin-report-.*\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.body as unknown as ArrayBuffer);
    const rows = workbook.worksheets[0]!.getSheetValues().slice(2).map((r) => (r as unknown[]).slice(1, 6)).filter((r) => r[0] === 'Payroll');
    // The workbook is written in the requester's language too.
    expect(workbook.worksheets[0]!.name).to.equal('Administradores');
    expect((workbook.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).to.deep.equal(['Aplicación', 'Nombre de usuario', 'Correo electrónico', 'Área', 'A través de']);
    expect(rows).to.deep.include(['Payroll', 'direct.admin', 'direct@example.com', w.areaA.name, 'Directo']);
    expect(rows).to.deep.include(['Payroll', 'group.admin', 'group@example.com', w.areaB.name, 'Grupo: Payroll admins']);
  });

  it('writes a job asked without a language in the requester’s saved one; the notification list follows the reader', async () => {
    const german = await userIn(w, w.areaA, { language: 'de' });
    await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, user: german, roles: [w.identity.roleByName.Administrator!] });
    const res = await request(w.server).post('/api/v1/admin/dashboard/adminReport').set('Authorization', await bearer(w, 'admin', german)).send({});
    expect(res.status).to.equal(202);
    const done = await waitForStatus(w, res.body.jobId as string, 'Succeeded');
    const notification = await waitForNotification(w, german.id, 'AdminReport');
    expect(notification.description).to.equal('Ihr vollständiger Administratorenbericht ist fertig');
    const file = await request(w.server)
      .get(`/api/v1/admin/filestorage/downloadExcel?url=${(done.result as { fileUrl: string }).fileUrl}`)
      .set('Authorization', await bearer(w, 'admin', german))
      .buffer(true)
      .parse(binary);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.body as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.name).to.equal('Administratoren');
    expect((workbook.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).to.deep.equal(['Anwendung', 'Benutzername', 'E-Mail', 'Bereich', 'Über']);

    // Listed, the notification is written in the language of the console reading it.
    const listed = async (lang: string) => (await call(w, 'get', '/notifications/active', { user: german, lang })).body.items[0].description as string;
    expect(await listed('en')).to.equal('Your full admin report is ready');
    expect(await listed('de')).to.equal('Ihr vollständiger Administratorenbericht ist fertig');
  });

  it('refuses the report to a role the dashboard does not admit', async () => {
    const res = await call(w, 'post', '/dashboard/adminReport', { as: 'manager', body: {} });
    expect(res.status).to.equal(403);
  });

  it("answers 404 for another user's file and for an expired one, 400 for a bad id", async () => {
    const bytes = Buffer.from('x');
    const other = await storeFile(w.context, { ownerId: w.callers.god.id, fileName: 'a.xlsx', mediaType: 'application/octet-stream', bytes });
    const theirs = await call(w, 'get', `/filestorage/downloadExcel?url=${other}`);
    expect(theirs.status).to.equal(404);
    expect(theirs.body.code).to.equal('errors.file_not_found');
    const mine = await storeFile(w.context, { ownerId: w.callers.admin.id, fileName: 'b.xlsx', mediaType: 'application/octet-stream', bytes });
    await w.context.dataSource.query(`UPDATE stored_files SET expires_at = now() - interval '1 minute' WHERE id = $1`, [mine]);
    const expired = await call(w, 'get', `/filestorage/downloadExcel?url=${mine}`);
    expect(expired.status).to.equal(404);
    expect(expired.body.code).to.equal('errors.file_expired');
    const bad = await call(w, 'get', '/filestorage/downloadExcel?url=nope');
    expect(bad.status).to.equal(400);
  });
});
