import { randomBytes } from 'node:crypto';
import type { ImportResult } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, LANGUAGES, type JobHandler, type JobType, type User } from '@gatehouse/core';
import { buildUser, grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { bearer, binary, buildAdminWorld, userIn, xlsx, type AdminWorld, type Persona } from '../../../testing/admin-world.js';
import { downloadJobFile, jobNotification, jobProgress, withBackgroundJobs } from '../../../testing/exports.js';
import { importResult, queuedJob, whenJobStarts } from '../../../testing/jobs.js';
import { userListSql } from '../repository.js';
import { XLSX_MEDIA_TYPE, storeFile } from '../../jobs/files.js';
import { jobHandlers } from '../../../app.js';
import { usersChangedInOrder } from '../testing.js';
import { EXPORT_BATCH_SIZE } from './export.js';
import { MAX_IMPORT_ROWS } from './import.js';

const tag = () => `x${randomBytes(4).toString('hex')}`;
const IMPORT_HEADERS = ['UserName', 'Email', 'FirstName', 'LastName', 'Area', 'Language', 'SendEmailInvite'];

/** An .xlsx with one sheet: a header row and the given rows (null leaves a cell empty, [] an empty row). */
function workbook(headers: string[], rows: unknown[][]): Promise<Buffer> {
  return xlsx([headers, ...rows], 'Users');
}

async function readWorkbook(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buffer as unknown as ArrayBuffer);
  return book;
}

/** A cell's note as text, whether exceljs reads it back as a string or as rich text. */
function noteText(cell: ExcelJS.Cell): string {
  const note = cell.note as string | { texts?: Array<{ text: string }> } | undefined;
  return typeof note === 'string' ? note : (note?.texts ?? []).map((t) => t.text).join('');
}

/** Every row of a sheet as plain values (index 0 is the header row). */
function sheetValues(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('users Excel export and import', () => {
  let w: AdminWorld;

  before(async () => {
    w = await buildAdminWorld({ areaA: { name: `Alpha ${tag()}` }, areaB: { name: `Bravo ${tag()}` } });
  });

  const db = () => w.context.dataSource;

  const download = async (path: string, options: { as?: Persona; lang?: string } = {}) =>
    request(w.server)
      .get(`/api/v1/admin${path}`)
      .set('Authorization', await bearer(w, options.as))
      .set('Accept-Language', options.lang ?? 'en')
      .buffer(true)
      .parse(binary);

  const upload = async (path: string, file: Buffer, options: { as?: Persona; user?: User; lang?: string | null; name?: string; field?: string } = {}) => {
    const req = request(w.server)
      .post(`/api/v1/admin${path}`)
      .set('Authorization', await bearer(w, options.as, options.user))
      .attach(options.field ?? 'file', file, options.name ?? 'users.xlsx');
    return options.lang === null ? req : req.set('Accept-Language', options.lang ?? 'en');
  };

  /** The rows userListSql answers for a filter and ORDER BY, as user names. */
  const listed = async (filter: Parameters<typeof userListSql>[0], orderBy: string): Promise<string[]> => {
    const sql = userListSql(filter, orderBy);
    return (await db().query(sql.text, sql.values)).map((r: { user_name: string }) => r.user_name);
  };

  describe('GET /api/v1/admin/users/export', () => {
    let t: string;
    let users: User[];

    before(async () => {
      t = tag();
      users = await usersChangedInOrder(w, t, [
        { area: w.areaA, firstName: 'Zoé', lastName: 'Martin', language: 'fr' },
        { area: w.areaB, firstName: null, lastName: 'Dupont', language: 'en' },
        { area: w.areaA, firstName: 'Alice', lastName: null, language: 'pt-BR' },
      ]);
      await db().query(`UPDATE users SET locked = true, validate_scopes = true WHERE id = $1`, [users[0]!.id]);
    });

    it('streams Users.xlsx of the list query: headers in the caller language, the matching users newest change first', async () => {
      const res = await download(`/users/export?$search=${t}`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers['content-disposition']).to.equal('attachment; filename="Users.xlsx"');
      const book = await readWorkbook(res.body);
      const sheet = book.worksheets[0]!;
      expect(sheet.name).to.equal('Users');
      const rows = sheetValues(sheet);
      expect(rows[0]).to.deep.equal(['User name', 'E-mail', 'First name', 'Last name', 'Area', 'Language', 'Locked', 'Draft', 'Restricted', 'Modified on (UTC)']);
      expect(rows.slice(1).map((r) => r[0])).to.deep.equal([users[2]!.userName, users[1]!.userName, users[0]!.userName]);
      const [modified] = await db().query(`SELECT modified_on FROM users WHERE id = $1`, [users[0]!.id]);
      // Excel keeps milliseconds at most.
      expect(rows[3]!.slice(0, 9)).to.deep.equal([users[0]!.userName, users[0]!.email, 'Zoé', 'Martin', w.areaA.name, 'fr', 'Yes', 'No', 'Yes']);
      expect((rows[3]![9] as Date).getTime()).to.be.closeTo((modified.modified_on as Date).getTime(), 1);
      expect(rows[2]!.slice(2, 4)).to.deep.equal([undefined, 'Dupont']);

      const fr = await readWorkbook((await download(`/users/export?$search=${t}`, { lang: 'fr' })).body);
      expect(fr.worksheets[0]!.name).to.equal('Utilisateurs');
      expect(sheetValues(fr.worksheets[0]!)[0]!.slice(0, 3)).to.deep.equal(['Nom d’utilisateur', 'E-mail', 'Prénom']);
    });

    it('applies the list filters and sort (locked, area, orderBy), ignoring paging', async () => {
      const names = async (query: string) => sheetValues((await readWorkbook((await download(`/users/export?$search=${t}&${query}`)).body)).worksheets[0]!).slice(1).map((r) => r[0]);
      expect(await names('locked=true')).to.deep.equal([users[0]!.userName]);
      expect(await names('locked=false&skip=1&top=1')).to.deep.equal([users[2]!.userName, users[1]!.userName]);
      expect(await names(`area=${w.areaB.id}`)).to.deep.equal([users[1]!.userName]);
      for (const [orderBy, sql] of [
        ['firstName asc', 'u.first_name ASC'],
        ['firstName desc', 'u.first_name DESC'],
        ['lastName desc', 'u.last_name DESC'],
        ['areaName asc', 'a.name ASC'],
        ['userName desc', 'u.user_name DESC'],
      ]) {
        expect(await names(`orderBy=${encodeURIComponent(orderBy!)}`), orderBy).to.deep.equal(await listed({ search: t, areaIds: null }, sql!));
      }
    });

    it('pages through more users than one batch, in the list order, without repeating or skipping one', async () => {
      const big = tag();
      const total = EXPORT_BATCH_SIZE * 2 + 37;
      // Equal change times and many NULL first names: the keyset must break ties by id and carry NULLs across pages.
      await db().query(
        `INSERT INTO users (user_name, normalized_user_name, email, normalized_email, first_name, area_id, modified_on)
         SELECT $1 || '-' || i, $1 || '-' || i, $1 || '-' || i || '@example.com', $1 || '-' || i || '@example.com',
                CASE WHEN i % 3 = 0 THEN NULL ELSE 'N' || (i % 7) END, $2, timestamp '2024-05-01 10:00:00.123456' + (i % 5) * interval '1 microsecond'
           FROM generate_series(1, $3::int) AS i`,
        [big, w.areaA.id, total],
      );
      for (const [orderBy, sql] of [
        ['modifiedOn desc', 'u.modified_on DESC'],
        ['firstName asc', 'u.first_name ASC'],
        ['firstName desc', 'u.first_name DESC'],
      ]) {
        const res = await download(`/users/export?$search=${big}&orderBy=${encodeURIComponent(orderBy!)}`);
        const exported = sheetValues((await readWorkbook(res.body)).worksheets[0]!).slice(1).map((r) => r[0]);
        expect(exported.length, orderBy).to.equal(total);
        expect(exported, orderBy).to.deep.equal(await listed({ search: big, areaIds: null }, sql!));
      }
    });

    it('gives an AreaAdministrator the users of their areas only, and a TenantAdministrator all', async () => {
      const names = async (as: Persona) => sheetValues((await readWorkbook((await download(`/users/export?$search=${t}`, { as })).body)).worksheets[0]!).slice(1).map((r) => r[0]);
      expect(await names('areaAdmin')).to.deep.equal([users[2]!.userName, users[0]!.userName]);
      expect(await names('tenantAdmin')).to.have.length(3);
    });

    it('refuses a bad sort or filter with a 400 naming it in the caller language, and a Manager with a 403', async () => {
      const bad = await request(w.server)
        .get('/api/v1/admin/users/export?orderBy=password_hash%20asc')
        .set('Authorization', await bearer(w))
        .set('Accept-Language', 'fr');
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0]).to.include({ field: 'orderBy' });
      expect(bad.body.message).to.equal('La requête n’est pas valide');
      const area = await request(w.server).get('/api/v1/admin/users/export?area=nope').set('Authorization', await bearer(w));
      expect(area.status).to.equal(400);
      expect(area.body.errors[0]).to.include({ field: 'area' });
      expect((await download('/users/export', { as: 'manager' })).status).to.equal(403);
    });
  });

  describe('GET /api/v1/admin/users/template', () => {
    it('answers the import columns with a styled header, notes, drop-down lists, and the caller areas and languages on a second sheet', async () => {
      const res = await download('/users/template', { as: 'areaAdmin' });
      expect(res.status).to.equal(200);
      expect(res.headers['content-disposition']).to.equal('attachment; filename="UsersTemplate.xlsx"');
      const book = await readWorkbook(res.body);
      const [sheet, values] = book.worksheets;
      expect(sheetValues(sheet!)[0]).to.deep.equal(IMPORT_HEADERS);
      expect(sheet!.getCell('A1').font?.bold).to.equal(true);
      expect(noteText(sheet!.getCell('E1'))).to.match(/Values/);
      expect(sheet!.getCell('E2').dataValidation).to.include({ type: 'list' });
      expect(values!.name).to.equal('Values');
      const listed = sheetValues(values!);
      expect(listed[0]).to.deep.equal(['Areas', 'Languages', 'Language', 'SendEmailInvite']);
      // An area administrator is offered their own areas only.
      const areas = listed.slice(1).map((r) => r[0]).filter(Boolean);
      expect(areas).to.deep.equal([w.areaA.name]);
      expect(listed.slice(1).map((r) => r[1]).filter(Boolean)).to.deep.equal([...LANGUAGES]);
    });

    it('lists every area for an Administrator, with notes in the caller language', async () => {
      const book = await readWorkbook((await download('/users/template', { lang: 'fr' })).body);
      expect(book.worksheets[1]!.name).to.equal('Valeurs');
      const areas = sheetValues(book.worksheets[1]!).slice(1).map((r) => r[0]);
      expect(areas).to.include.members([w.areaA.name, w.areaB.name]);
      expect(noteText(book.worksheets[0]!.getCell('B1'))).to.match(/Obligatoire/);
    });

    it('is refused to a TenantAdministrator (read-only)', async () => {
      expect((await download('/users/template', { as: 'tenantAdmin' })).status).to.equal(403);
    });
  });

  describe('POST /api/v1/admin/users/bulk_insert', () => {
    withBackgroundJobs(() => w);

    it('creates the good rows and reports every other row by its spreadsheet number and reason', async () => {
      const t = tag();
      const existing = await buildUser(db(), { userName: `${t}-taken@example.com`, areaId: w.areaA.id });
      const file = await workbook(IMPORT_HEADERS, [
        [`${t}-a@example.com`, `${t}-a@example.com`, 'Ada', 'Lovelace', w.areaA.name, 'en', 'Yes'], // 2: good, invited
        [`${t}-b`, null, 'Bob', 'Martin', w.areaA.name, 'fr', 'No'], // 3: missing e-mail
        [`${t}-c`, 'not-an-email', 'Cy', 'Martin', w.areaA.name, 'fr', null], // 4: bad e-mail
        [`${t}-d`, `${t}-d@example.com`, 'Di', 'Martin', 'Atlantis', 'fr', null], // 5: unknown area
        [`${t}-e`, `${t}-e@example.com`, 'Ed', 'Martin', w.areaA.name, 'klingon', null], // 6: bad language
        [], // 7: empty, skipped
        [`${t}-f`, `${t}-f@example.com`, 'Flo', 'Durand', w.areaB.name, 'de', null], // 8: good
        [`${t}-a@example.com`, `${t}-a@example.com`, 'Ada', 'Lovelace', w.areaA.name, 'en', 'Yes'], // 9: same as row 2
        [`${t}-F`, `${t}-other@example.com`, 'Fay', 'Durand', w.areaB.name, 'de', null], // 10: user name of row 8
        [`${t}-TAKEN@example.com`, `${t}-x@example.com`, 'Gus', 'Durand', w.areaA.name, 'en', null], // 11: exists
        [`${t}-h`, `${t}-h@example.com`, 'Hal', 'Durand', w.areaA.name.toUpperCase(), 'PT-br', 'oui'], // 12: good (case-insensitive)
      ]);
      const res = await upload('/users/bulk_insert', file, { name: 'Users.XLSX' });
      const result = await importResult(w.context, res);
      expect(result).to.include({ success: false, totalElements: 10, importedElements: 3 });
      // The job told how far it got, row by row.
      expect(await jobProgress(w, res.body.jobId)).to.deep.equal({ progress: 10, total: 10 });
      expect(result.errors).to.deep.equal([
        { row: 3, reason: 'Please input your email!' },
        { row: 4, reason: 'Email: "not-an-email" is not a valid e-mail address.' },
        { row: 5, reason: 'Area: unknown area "Atlantis".' },
        { row: 6, reason: `Language: unknown language "klingon": use one of ${LANGUAGES.join(', ')}.` },
        { row: 10, reason: `The user name ${t}-F is already in row 8.` },
        { row: 11, reason: `A user with the user name ${t}-TAKEN@example.com already exists.` },
      ]);
      expect(result.warnings).to.deep.equal([{ row: 9, reason: 'Same as row 2: skipped.' }]);

      // Imported users get no password until their invitation or a reset sets one.
      const created = await db().query(
        `SELECT u.user_name, u.email, u.first_name, u.last_name, u.area_id, u.language, u.password_hash IS NOT NULL AS has_password
           FROM users u WHERE u.user_name LIKE $1 || '%' AND u.id <> $2 ORDER BY u.user_name`,
        [t, existing.id],
      );
      expect(created).to.deep.equal([
        { user_name: `${t}-a@example.com`, email: `${t}-a@example.com`, first_name: 'Ada', last_name: 'Lovelace', area_id: w.areaA.id, language: 'en', has_password: false },
        { user_name: `${t}-f`, email: `${t}-f@example.com`, first_name: 'Flo', last_name: 'Durand', area_id: w.areaB.id, language: 'de', has_password: false },
        { user_name: `${t}-h`, email: `${t}-h@example.com`, first_name: 'Hal', last_name: 'Durand', area_id: w.areaA.id, language: 'pt-BR', has_password: false },
      ]);
      // SendEmailInvite: Yes queued the invitation (kept in the outbox: no SMTP in tests).
      expect(await db().query(`SELECT template FROM mail_outbox WHERE to_address = $1`, [`${t}-a@example.com`])).to.deep.equal([{ template: 'invitation' }]);
      expect(await db().query(`SELECT 1 FROM mail_outbox WHERE to_address = $1`, [`${t}-f@example.com`])).to.have.length(0);

      const logs = await db().query(`SELECT user_id, operation, metadata FROM system_logs WHERE operation = 'BulkInsert' AND metadata->>'fileName' = 'Users.XLSX'`);
      expect(logs).to.have.length(1);
      expect(logs[0].user_id).to.equal(w.callers.admin.id);
      expect(logs[0].metadata).to.include({ type: 'BulkInsertUsers', totalElements: 10, importedElements: 3, errors: 6, warnings: 1 });
    });

    it('answers the row reasons in the caller language, French by default', async () => {
      const t = tag();
      const file = await workbook(IMPORT_HEADERS, [
        [`${t}-a`, 'pas-un-email', 'Ada', 'Lovelace', w.areaA.name, 'fr', null],
        [`${t}-b`, `${t}-b@example.com`, 'Bob', null, 'Atlantide', 'fr', 'peut-être'],
      ]);
      const result = await importResult(w.context, await upload('/users/bulk_insert', file, { lang: null }));
      expect(result.errors).to.deep.equal([
        { row: 2, reason: 'Email : « pas-un-email » n’est pas une adresse e-mail valide.' },
        { row: 3, reason: 'Veuillez saisir votre nom ! Area : zone inconnue « Atlantide ». SendEmailInvite doit valoir Yes ou No, et non « peut-être ».' },
      ]);
      expect(result).to.include({ success: false, totalElements: 2, importedElements: 0 });
    });

    it('takes a blank SendEmailInvite for No, and names the column and the value of one that is neither Yes nor No', async () => {
      const t = tag();
      const file = await workbook(IMPORT_HEADERS, [
        [`${t}-a`, `${t}-a@example.com`, 'Ann', 'Lee', w.areaA.name, 'en', null],
        [`${t}-b`, `${t}-b@example.com`, 'Ben', 'Lee', w.areaA.name, 'en', '   '],
        [`${t}-c`, `${t}-c@example.com`, 'Cat', 'Lee', w.areaA.name, 'en', 'maybe'],
      ]);
      const result = await importResult(w.context, await upload('/users/bulk_insert', file));
      expect(result).to.deep.equal({
        success: false,
        totalElements: 3,
        importedElements: 2,
        errors: [{ row: 4, reason: 'SendEmailInvite must be Yes or No, not "maybe".' }],
        warnings: [],
      });
      expect(await db().query(`SELECT 1 FROM mail_outbox WHERE to_address IN ($1, $2)`, [`${t}-a@example.com`, `${t}-b@example.com`])).to.have.length(0);
    });

    it('matches headers without case or spaces and ignores unknown columns', async () => {
      const t = tag();
      const file = await workbook(['Notes', 'user name', 'E-MAIL', 'First Name', 'last_name', 'AREA', 'language'], [['hello', `${t}-a`, `${t}-a@example.com`, 'Ann', 'Lee', w.areaA.name, 'it']]);
      expect(await importResult(w.context, await upload('/users/bulk_insert', file))).to.deep.equal({ success: true, totalElements: 1, importedElements: 1, errors: [], warnings: [] });
      expect(await db().query(`SELECT language FROM users WHERE user_name = $1`, [`${t}-a`])).to.deep.equal([{ language: 'it' }]);
    });

    it('lets an AreaAdministrator import into their areas only: another area reads as unknown', async () => {
      const t = tag();
      const file = await workbook(IMPORT_HEADERS, [
        [`${t}-a`, `${t}-a@example.com`, 'Ann', 'Lee', w.areaA.name, 'en', null],
        [`${t}-b`, `${t}-b@example.com`, 'Ben', 'Lee', w.areaB.name, 'en', null],
      ]);
      const result = await importResult(w.context, await upload('/users/bulk_insert', file, { as: 'areaAdmin' }));
      expect(result).to.include({ totalElements: 2, importedElements: 1 });
      expect(result.errors).to.deep.equal([{ row: 3, reason: `Area: unknown area "${w.areaB.name}".` }]);
      expect(await db().query(`SELECT 1 FROM users WHERE user_name = $1`, [`${t}-b`])).to.have.length(0);
    });

    it('refuses a TenantAdministrator with a 403 and creates nothing', async () => {
      const t = tag();
      const res = await upload('/users/bulk_insert', await workbook(IMPORT_HEADERS, [[`${t}-a`, `${t}-a@example.com`, 'A', 'B', w.areaA.name, 'en', null]]), {
        as: 'tenantAdmin',
      });
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('You do not have permission to perform this action');
      expect(await db().query(`SELECT 1 FROM users WHERE user_name = $1`, [`${t}-a`])).to.have.length(0);
    });

    it('refuses another extension with "Extension not allowed", in the caller language', async () => {
      const csv = Buffer.from('UserName,Email\nann,ann@example.com\n');
      const en = await upload('/users/bulk_insert', csv, { name: 'users.csv' });
      expect(en.status).to.equal(400);
      expect(en.body).to.include({ code: 'import.extension_not_allowed', message: 'Extension not allowed' });
      const fr = await upload('/users/bulk_insert', csv, { name: 'users.xls', lang: 'fr' });
      expect(fr.body.message).to.equal('Extension non autorisée');
    });

    it('refuses a file over 2 MB with a 413 naming the limit', async () => {
      // Just over the limit: multer stops reading it.
      const over = await upload('/users/bulk_insert', Buffer.alloc(2 * 1024 * 1024 + 1, 1));
      expect(over.status).to.equal(413);
      expect(over.body).to.include({ code: 'import.file_too_large', message: 'The file is larger than the limit of 2 MB' });
      // Far over: refused by its Content-Length before a byte of it is read.
      const far = await upload('/users/bulk_insert', Buffer.alloc(3 * 1024 * 1024, 1), { lang: 'fr' }).catch((error: { response?: request.Response }) => error.response!);
      expect(far.status).to.equal(413);
      expect(far.body.message).to.equal('Le fichier dépasse la limite de 2 MB');
    });

    it('refuses a missing file, a file that is not a workbook, missing columns, no rows and too many rows with a 400 naming the problem, queuing nothing', async () => {
      const kept = async () =>
        (await db().query(`SELECT (SELECT count(*)::int FROM background_jobs WHERE user_id = $1) AS jobs, (SELECT count(*)::int FROM stored_files WHERE owner_id = $1) AS files`, [
          w.callers.admin.id,
        ]))[0];
      const before = await kept();
      const noFile = await request(w.server).post('/api/v1/admin/users/bulk_insert').set('Authorization', await bearer(w)).field('other', 'x');
      expect(noFile.status).to.equal(400);
      expect(noFile.body.code).to.equal('import.file_required');
      const wrongField = await upload('/users/bulk_insert', await workbook(IMPORT_HEADERS, []), { field: 'upload' });
      expect(wrongField.status).to.equal(400);
      expect(wrongField.body.message).to.equal('Choose an Excel file (.xlsx) and send it in the form field "file"');

      const notXlsx = await upload('/users/bulk_insert', Buffer.from('this is not a spreadsheet'));
      expect(notXlsx.status).to.equal(400);
      expect(notXlsx.body).to.include({ code: 'import.unreadable_file', message: 'The file could not be read as an Excel workbook (.xlsx)' });

      const columns = await upload('/users/bulk_insert', await workbook(['UserName', 'Email', 'FirstName'], [['a', 'a@example.com', 'A']]));
      expect(columns.status).to.equal(400);
      expect(columns.body.message).to.equal('The first row of the file must name the columns; missing: LastName, Area, Language');

      const empty = await upload('/users/bulk_insert', await workbook(IMPORT_HEADERS, [[], []]));
      expect(empty.status).to.equal(400);
      expect(empty.body.code).to.equal('import.no_rows');

      const rows = Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => [`bulk-${i}`, `bulk-${i}@example.com`, 'A', 'B', w.areaA.name, 'en', null]);
      const tooMany = await upload('/users/bulk_insert', await workbook(IMPORT_HEADERS, rows));
      expect(tooMany.status).to.equal(400);
      expect(tooMany.body.message).to.equal(`The file has more than ${MAX_IMPORT_ROWS} rows. Split it into several files.`);
      expect(await db().query(`SELECT 1 FROM users WHERE user_name = 'bulk-0'`)).to.have.length(0);
      // Refused at once: no job, and no file kept.
      expect(await kept()).to.deep.equal(before);
    });

    it('notifies the requester with the import result, which the flyout opens', async () => {
      const t = tag();
      const file = await workbook(IMPORT_HEADERS, [
        [`${t}-a`, `${t}-a@example.com`, 'Ann', 'Lee', w.areaA.name, 'en', null],
        [`${t}-b`, 'nope', 'Ben', 'Lee', w.areaA.name, 'en', null],
      ]);
      // Uploaded from a console in German by a user whose profile says English.
      const requester = await userIn(w, w.areaA, { language: 'en' });
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: requester, roles: [w.identity.roleByName.Administrator!] });
      const result = await importResult(w.context, await upload('/users/bulk_insert', file, { user: requester, lang: 'de' }));
      const notification = await jobNotification(w, requester.id, 'BulkInsertUsers');
      expect(notification.data).to.deep.equal(result);
      expect(notification.data).to.deep.equal({
        success: false,
        totalElements: 2,
        importedElements: 1,
        errors: [{ row: 3, reason: w.context.i18n.t('import.invalid_email', { lng: 'de', column: 'Email', value: 'nope' }) as string }],
        warnings: [],
      });
      // Described, like its rows, in the language of the console that uploaded it.
      expect(notification.description).to.equal(w.context.i18n.t('jobs.done.BulkInsertUsers', { lng: 'de', totalElements: 2, importedElements: 1 }));
      expect(notification.description).to.equal('Benutzerimport abgeschlossen: 1 von 2 Zeilen übernommen');
    });

    it('imports with the rights the requester has when the job runs: a role removed since the upload imports nothing', async () => {
      const t = tag();
      const requester = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: requester, roles: [w.identity.roleByName.AreaAdministrator!] });
      const file = await workbook(IMPORT_HEADERS, [[`${t}-a`, `${t}-a@example.com`, 'Ann', 'Lee', w.areaA.name, 'en', null]]);
      // The role goes between the upload (accepted) and the job.
      const undo = await whenJobStarts(w.context, requester.id, {
        statement: `DELETE FROM tenant_members WHERE user_id = '${requester.id}';`,
      });
      try {
        const job = await queuedJob(w.context, await upload('/users/bulk_insert', file, { as: 'areaAdmin', user: requester }));
        expect(job).to.include({ status: 'Failed', error: 'You do not have permission to perform this action', result: null });
      } finally {
        await undo();
      }
      expect(await db().query(`SELECT 1 FROM users WHERE user_name = $1`, [`${t}-a`])).to.have.length(0);
      expect(await db().query(`SELECT 1 FROM system_logs WHERE operation = 'BulkInsert' AND user_id = $1`, [requester.id])).to.have.length(0);
      // The upload is not kept once its job has failed.
      expect(await db().query(`SELECT 1 FROM stored_files WHERE owner_id = $1`, [requester.id])).to.have.length(0);
      const notification = await jobNotification(w, requester.id, 'BulkInsertUsers');
      expect(notification.data).to.deep.equal({ success: false, messageError: 'You do not have permission to perform this action' });
    });

    it('imports nothing for a requester locked since the upload, and only the area the requester still has', async () => {
      const t = tag();
      const locked = await userIn(w, w.areaA);
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: locked, roles: [w.identity.roleByName.Administrator!] });
      const undo = await whenJobStarts(w.context, locked.id, { statement: `UPDATE users SET locked = true WHERE id = '${locked.id}';` });
      try {
        const file = await workbook(IMPORT_HEADERS, [[`${t}-a`, `${t}-a@example.com`, 'Ann', 'Lee', w.areaA.name, 'en', null]]);
        const job = await queuedJob(w.context, await upload('/users/bulk_insert', file, { user: locked, lang: 'fr' }));
        // In the language of the upload.
        expect(job).to.include({ status: 'Failed', error: 'Accès refusé' });
      } finally {
        await undo();
      }
      expect(await db().query(`SELECT 1 FROM users WHERE user_name = $1`, [`${t}-a`])).to.have.length(0);

      // An area administrator whose areas shrank since the upload imports into the remaining ones only.
      const shrinking = await userIn(w, w.areaA);
      await grant(db(), { tenant: w.tenantA, user: shrinking, roles: [w.identity.roleByName.AreaAdministrator!] });
      await grant(db(), { tenant: w.tenantB, user: shrinking, roles: [w.identity.roleByName.AreaAdministrator!] });
      const shrink = await whenJobStarts(w.context, shrinking.id, {
        statement: `DELETE FROM tenant_members WHERE user_id = '${shrinking.id}' AND tenant_id = '${w.tenantB.id}';`,
      });
      try {
        const file = await workbook(IMPORT_HEADERS, [
          [`${t}-b`, `${t}-b@example.com`, 'Ben', 'Lee', w.areaA.name, 'en', null],
          [`${t}-c`, `${t}-c@example.com`, 'Cy', 'Lee', w.areaB.name, 'en', null],
        ]);
        const result = await importResult(w.context, await upload('/users/bulk_insert', file, { as: 'areaAdmin', user: shrinking }));
        expect(result).to.deep.include({ importedElements: 1, errors: [{ row: 3, reason: `Area: unknown area "${w.areaB.name}".` }] });
      } finally {
        await shrink();
      }
      expect(await db().query(`SELECT 1 FROM users WHERE user_name = $1`, [`${t}-c`])).to.have.length(0);
    });

    it('keeps the upload for its job as the requester’s own file: nobody else can download it', async () => {
      const t = tag();
      const file = await workbook(IMPORT_HEADERS, [[`${t}-a`, `${t}-a@example.com`, 'Ann', 'Lee', w.areaA.name, 'en', null]]);
      const requester = await userIn(w, w.areaA);
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: requester, roles: [w.identity.roleByName.Administrator!] });
      // The job is held back, so its upload is still there.
      const release = await whenJobStarts(w.context, requester.id, { hold: true });
      try {
        const res = await upload('/users/bulk_insert', file, { user: requester, name: 'mine.xlsx' });
        expect(res.status).to.equal(202);
        const [job] = await db().query(`SELECT payload FROM background_jobs WHERE id = $1`, [res.body.jobId]);
        const fileId = job.payload.fileId as string;
        const [kept] = await db().query(`SELECT owner_id, file_name, expires_at <= now() + interval '24 hours' AS within_a_day FROM stored_files WHERE id = $1`, [fileId]);
        expect(kept).to.deep.equal({ owner_id: requester.id, file_name: 'mine.xlsx', within_a_day: true });
        const theirs = await downloadJobFile(w, fileId, 'admin');
        expect(theirs.status).to.equal(404);
        expect(JSON.parse(theirs.body.toString()).code).to.equal('errors.file_not_found');
        expect((await downloadJobFile(w, fileId, 'god')).status).to.equal(404);
        const own = await downloadJobFile(w, fileId, 'admin', requester);
        expect(own.status).to.equal(200);
        expect(Buffer.compare(own.body as Buffer, file)).to.equal(0);
      } finally {
        await release();
      }
    });
  });

  describe('users/changeUserNameTemplate and users/changeUserName', () => {
    const CHANGE_HEADERS = ['CurrentUserName', 'NewUserName', 'NewEmail'];
    withBackgroundJobs(() => w);

    it('answers the template with its three columns', async () => {
      const res = await download('/users/changeUserNameTemplate');
      expect(res.status).to.equal(200);
      expect(res.headers['content-disposition']).to.equal('attachment; filename="ChangeUserNameTemplate.xlsx"');
      expect(sheetValues((await readWorkbook(res.body)).worksheets[0]!)[0]).to.deep.equal(CHANGE_HEADERS);
    });

    it('renames users row by row, sets the e-mail when given, and reports unknown users, conflicts and no-ops', async () => {
      const t = tag();
      const built: User[] = [];
      for (const n of ['ann', 'bob', 'cat', 'dan', 'eve']) built.push(await buildUser(db(), { userName: `${t}-${n}`, areaId: w.areaA.id }));
      const [ann, bob, cat, dan, eve] = built as [User, User, User, User, User];
      const changed: string[] = [];
      const stop = w.context.broadcast.on('user.changed', ({ userId }) => userId && changed.push(userId));
      const file = await workbook(CHANGE_HEADERS, [
        [`${t}-ANN`, `${t}-anne`, `${t}-anne@example.com`], // 2: renamed, new e-mail (current name in any case)
        [`${t}-bob`, `${t}-robert`, null], // 3: renamed, e-mail kept
        [`${t}-nobody`, `${t}-somebody`, null], // 4: unknown user
        [`${t}-cat`, `${t}-cat`, null], // 5: nothing to change
        [`${t}-dan`, `${t}-EVE`, null], // 6: eve holds that name
        [`${t}-eve`, null, 'x@example.com'], // 7: new name missing
        [`${t}-eve`, `${t}-eva`, 'not-an-email'], // 8: bad e-mail
        [`${t}-bob`, `${t}-bobby`, null], // 9: bob already has a row
      ]);
      const result = await importResult(w.context, await upload('/users/changeUserName', file));
      stop();
      expect(result).to.include({ success: false, totalElements: 8, importedElements: 2 });
      expect(result.errors).to.deep.equal([
        { row: 4, reason: `No user has the user name ${t}-nobody.` },
        { row: 6, reason: `A user with the user name ${t}-EVE already exists.` },
        { row: 7, reason: 'Please input the new username!' },
        { row: 8, reason: 'NewEmail: "not-an-email" is not a valid e-mail address.' },
        { row: 9, reason: `The user name ${t}-bob is already in row 3.` },
      ]);
      expect(result.warnings).to.deep.equal([{ row: 5, reason: 'The new user name and e-mail are the current ones: nothing to change.' }]);

      const row = async (id: string) => (await db().query(`SELECT user_name, normalized_user_name, email, normalized_email FROM users WHERE id = $1`, [id]))[0];
      expect(await row(ann.id)).to.deep.equal({
        user_name: `${t}-anne`,
        normalized_user_name: `${t}-anne`,
        email: `${t}-anne@example.com`,
        normalized_email: `${t}-anne@example.com`,
      });
      expect(await row(bob.id)).to.include({ user_name: `${t}-robert`, email: bob.email });
      for (const user of [cat, dan, eve]) expect((await row(user.id)).user_name).to.equal(user.userName);
      expect(changed).to.have.members([ann.id, bob.id]);

      const logs = await db().query(`SELECT user_id, metadata FROM system_logs WHERE operation = 'ChangeUserName' AND metadata->>'targetUserId' = $1`, [ann.id]);
      expect(logs).to.have.length(1);
      expect(logs[0].user_id).to.equal(w.callers.admin.id);
      expect(logs[0].metadata).to.deep.include({
        from: { userName: `${t}-ann`, email: ann.email },
        to: { userName: `${t}-anne`, email: `${t}-anne@example.com` },
      });
    });

    it('applies rows in file order, so a name freed by one row can be taken by the next, in French by default', async () => {
      const t = tag();
      const a = await buildUser(db(), { userName: `${t}-a`, areaId: w.areaA.id });
      const b = await buildUser(db(), { userName: `${t}-b`, areaId: w.areaA.id });
      const result = await importResult(
        w.context,
        await upload(
          '/users/changeUserName',
          await workbook(CHANGE_HEADERS, [
            [`${t}-a`, `${t}-c`, null],
            [`${t}-b`, `${t}-a`, null],
            [`${t}-zz`, `${t}-y`, null],
          ]),
          { lang: null },
        ),
      );
      expect(result).to.include({ totalElements: 3, importedElements: 2 });
      expect(result.errors).to.deep.equal([{ row: 4, reason: `Aucun utilisateur n’a le nom d’utilisateur ${t}-zz.` }]);
      expect((await db().query(`SELECT user_name FROM users WHERE id = ANY($1::uuid[]) ORDER BY user_name`, [[a.id, b.id]])).map((r: { user_name: string }) => r.user_name)).to.deep.equal([
        `${t}-a`,
        `${t}-c`,
      ]);
    });

    it('lets only God rename a God user', async () => {
      const t = tag();
      const godUser = await buildUser(db(), { userName: `${t}-god`, areaId: w.areaA.id });
      const [identityGod] = await db().query(`SELECT id FROM roles WHERE application_id = $1 AND name = 'God'`, [IDENTITY_APPLICATION_ID]);
      await grant(db(), { tenant: GLOBAL_TENANT_ID, user: godUser, roles: [identityGod] });
      const file = await workbook(CHANGE_HEADERS, [[`${t}-god`, `${t}-renamed`, null]]);
      const byAdmin = await importResult(w.context, await upload('/users/changeUserName', file));
      expect(byAdmin.errors).to.deep.equal([{ row: 2, reason: 'You do not have permission to perform this action' }]);
      const byGod = await importResult(w.context, await upload('/users/changeUserName', file, { as: 'god' }));
      expect(byGod, JSON.stringify(byGod)).to.include({ success: true, importedElements: 1 });
    });

    it('is for Administrators and God only', async () => {
      const file = await workbook(CHANGE_HEADERS, [['a', 'b', null]]);
      expect((await upload('/users/changeUserName', file, { as: 'areaAdmin' })).status).to.equal(403);
      expect((await download('/users/changeUserNameTemplate', { as: 'areaAdmin' })).status).to.equal(403);
    });
  });
  describe('an import job taken up again after its node stopped mid-run', () => {
    withBackgroundJobs(() => w);

    /** A job of the Administrator's as the queue leaves it after an attempt that stopped: Running, started. */
    const interruptedJob = async (type: JobType): Promise<string> =>
      (await db().query(`INSERT INTO background_jobs (type, user_id, status, started_at) VALUES ($1, $2, 'Running', now()) RETURNING id`, [type, w.callers.admin.id]))[0].id;

    /** One attempt of the job, as the queue runs it, on an upload of `file`. */
    const attempt = async (type: JobType, jobId: string, number: number, file: Buffer) => {
      const fileId = await storeFile(w.context, { ownerId: w.callers.admin.id, fileName: 'retried.xlsx', mediaType: XLSX_MEDIA_TYPE, bytes: file });
      const handler = jobHandlers[type]!(w.context) as JobHandler;
      const result = await handler({ jobId, type, payload: { fileId, language: 'en', params: {} }, userId: w.callers.admin.id, attempt: number, progress: async () => undefined });
      expect(await db().query(`SELECT 1 FROM stored_files WHERE id = $1`, [fileId]), 'the upload is deleted').to.have.length(0);
      return result as unknown as ImportResult;
    };

    it('creates no second user: the rows the stopped attempt created are warnings, a user of before the job still an error', async () => {
      const t = tag();
      const row = (name: string) => [`${t}-${name}`, `${t}-${name}@example.com`, 'Ann', 'Lee', w.areaA.name, 'en', null];
      // Created by the same Administrator, but before the job.
      await importResult(w.context, await upload('/users/bulk_insert', await workbook(IMPORT_HEADERS, [row('pre')])));
      const jobId = await interruptedJob('BulkInsertUsers');
      // The first attempt got through the first two rows, then its node stopped.
      await attempt('BulkInsertUsers', jobId, 1, await workbook(IMPORT_HEADERS, [row('a'), row('b')]));
      const result = await attempt('BulkInsertUsers', jobId, 2, await workbook(IMPORT_HEADERS, [row('a'), row('b'), row('c'), row('pre')]));
      expect(result).to.deep.equal({
        success: false,
        totalElements: 4,
        importedElements: 3,
        errors: [{ row: 5, reason: `A user with the user name ${t}-pre already exists.` }],
        warnings: [
          { row: 2, reason: 'Already applied before the import was interrupted and resumed.' },
          { row: 3, reason: 'Already applied before the import was interrupted and resumed.' },
        ],
      });
      const names = await db().query(`SELECT user_name, count(*)::int AS n FROM users WHERE user_name LIKE $1 || '-%' GROUP BY user_name ORDER BY user_name`, [t]);
      expect(names).to.deep.equal(['a', 'b', 'c', 'pre'].map((n) => ({ user_name: `${t}-${n}`, n: 1 })));
    });

    it('applies no rename twice: the rows the stopped attempt applied are skipped, the others applied', async () => {
      const t = tag();
      const a = await buildUser(db(), { userName: `${t}-a`, areaId: w.areaA.id });
      const c = await buildUser(db(), { userName: `${t}-c`, areaId: w.areaA.id });
      const CHANGE_HEADERS = ['CurrentUserName', 'NewUserName', 'NewEmail'];
      // Row 3 gives the name row 2 frees: applied twice, it would rename the wrong user.
      const rows = [
        [`${t}-a`, `${t}-b`, null],
        [`${t}-c`, `${t}-a`, null],
      ];
      const jobId = await interruptedJob('BulkChangeUsernameEmail');
      await attempt('BulkChangeUsernameEmail', jobId, 1, await workbook(CHANGE_HEADERS, [rows[0]!]));
      const names = async () => (await db().query(`SELECT id, user_name FROM users WHERE id = ANY($1::uuid[]) ORDER BY user_name`, [[a.id, c.id]])).map((u: { id: string; user_name: string }) => [u.id, u.user_name]);
      expect(await names()).to.deep.equal([
        [a.id, `${t}-b`],
        [c.id, `${t}-c`],
      ]);
      const second = await attempt('BulkChangeUsernameEmail', jobId, 2, await workbook(CHANGE_HEADERS, rows));
      expect(second).to.deep.equal({
        success: true,
        totalElements: 2,
        importedElements: 2,
        errors: [],
        warnings: [{ row: 2, reason: 'Already applied before the import was interrupted and resumed.' }],
      });
      const third = await attempt('BulkChangeUsernameEmail', jobId, 3, await workbook(CHANGE_HEADERS, rows));
      expect(third).to.deep.include({ success: true, importedElements: 2, errors: [] });
      expect(third.warnings).to.have.length(2);
      expect(await names()).to.deep.equal([
        [c.id, `${t}-a`],
        [a.id, `${t}-b`],
      ]);
      const logs = await db().query(`SELECT metadata->>'row' AS row FROM system_logs WHERE operation = 'ChangeUserName' AND metadata->>'jobId' = $1 ORDER BY id`, [jobId]);
      expect(logs).to.deep.equal([{ row: '2' }, { row: '3' }]);
    });
  });
});
