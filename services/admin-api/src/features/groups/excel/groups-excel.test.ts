import { randomBytes, randomUUID } from 'node:crypto';
import { grant } from '@gatehouse/core/testing';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { binary, xlsx } from '../../../testing/admin-world.js';
import { jobNotification, withBackgroundJobs } from '../../../testing/exports.js';
import { importResult, queuedJob, whenJobStarts } from '../../../testing/jobs.js';
import { GLOBAL_TENANT_ID, addMember, bearer, buildGroupsWorld, groupIn, logsOf, membersOf, userIn, type GroupsWorld, type Persona } from '../testing.js';

describe('group members in Excel', () => {
  let w: GroupsWorld;

  before(async () => {
    w = await buildGroupsWorld();
  });

  const upload = async (groupId: string, file: Buffer | undefined, options: { as?: Persona; name?: string; lang?: string; field?: string } = {}) => {
    const req = request(w.server)
      .post(`/api/v1/admin/groups/bulk_insert/${groupId}`)
      .set('Authorization', await bearer(w, options.as))
      .set('Accept-Language', options.lang ?? 'en');
    return file ? req.attach(options.field ?? 'file', file, options.name ?? 'members.xlsx') : req.field('note', 'no file');
  };

  describe('GET /api/v1/admin/groups/template/{groupId}', () => {
    it('answers an .xlsx attachment named after the group, with UserName and Permission columns and notes in the caller’s language', async () => {
      const group = await groupIn(w, w.areaA, { name: `Sales Team ${randomBytes(2).toString('hex')}` });
      const res = await request(w.server)
        .get(`/api/v1/admin/groups/template/${group.id}`)
        .set('Authorization', await bearer(w))
        .set('Accept-Language', 'fr')
        .buffer(true)
        .parse(binary);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers['content-disposition']).to.equal(`attachment; filename="${group.name.replaceAll(' ', '-')}-members-template.xlsx"`);
      const workbook = await new ExcelJS.Workbook().xlsx.load(res.body);
      const sheet = workbook.worksheets[0]!;
      expect(sheet.name).to.equal('Membres');
      expect([sheet.getCell('A1').text, sheet.getCell('B1').text]).to.deep.equal(['UserName', 'Permission']);
      expect(sheet.getCell('B1').note).to.equal('Reader ou Owner (vide : Reader)');
      expect(sheet.getCell('B2').dataValidation).to.deep.include({ type: 'list', formulae: ['"Reader,Owner"'] });
      expect(sheet.actualRowCount).to.equal(1);
    });

    it('answers 404 for an unknown or malformed group, or one outside an AreaAdministrator’s areas; 403 to a TenantAdministrator', async () => {
      const get = async (id: string, as: Persona = 'admin') =>
        request(w.server).get(`/api/v1/admin/groups/template/${id}`).set('Authorization', await bearer(w, as));
      expect((await get(randomUUID())).status).to.equal(404);
      expect((await get('not-a-uuid')).status).to.equal(404);
      expect((await get((await groupIn(w, w.areaB)).id, 'areaAdmin')).status).to.equal(404);
      expect((await get((await groupIn(w, w.areaA)).id, 'areaAdmin')).status).to.equal(200);
      expect((await get((await groupIn(w, w.areaA)).id, 'tenantAdmin')).status).to.equal(403);
    });
  });

  describe('POST /api/v1/admin/groups/bulk_insert/{groupId}', () => {
    withBackgroundJobs(() => w);

    it('adds as Readers the rows whose Permission cell is blank', async () => {
      const group = await groupIn(w, w.areaA);
      const [ann, ben] = [await userIn(w, w.areaA), await userIn(w, w.areaA)];
      const file = await xlsx([
        ['UserName', 'Permission'],
        [ann.userName, null],
        [ben.userName, '  '],
      ]);
      expect(await importResult(w.context, await upload(group.id, file))).to.deep.equal({ success: true, totalElements: 2, importedElements: 2, errors: [], warnings: [] });
      expect(await membersOf(w, group.id)).to.deep.equal({ [ann.id]: 'Reader', [ben.id]: 'Reader' });
    });

    it('adds the good rows and reports bad and duplicate rows by their Excel row number, without stopping', async () => {
      const group = await groupIn(w, w.areaA);
      await grant(w.context.dataSource, { tenant: w.tenantA, group, roles: [w.app.roleByName.Reader!] });
      const [byName, byEmail, existingReader, existingOwner] = [await userIn(w, w.areaA), await userIn(w, w.areaA), await userIn(w, w.areaA), await userIn(w, w.areaA)];
      // An e-mail that is not the user name: the row finds the user by e-mail.
      await w.context.dataSource.query(`UPDATE users SET email = $2::text, normalized_email = lower($2::text) WHERE id = $1`, [byEmail.id, `Mail-${byEmail.id}@Example.com`]);
      await addMember(w, group, existingReader, 'Reader');
      await addMember(w, group, existingOwner, 'Owner');
      const file = await xlsx([
        ['UserName (or e-mail)', 'Permission (Reader/Owner)'],
        [byName.userName.toUpperCase(), 'reader'], // 2: added, case-insensitive
        [`mail-${byEmail.id}@example.com`, 'Owner'], // 3: added by e-mail
        ['nobody@example.com', 'Reader'], // 4: error, unknown user
        [byName.userName, 'Owner'], // 5: warning, duplicate of row 2
        [existingReader.userName, 'Owner'], // 6: warning, permission changed
        [existingOwner.userName, 'Owner'], // 7: warning, already a member as such
        [(await userIn(w, w.areaA)).userName, 'Admin'], // 8: error, bad permission
        [],
        [null, 'Reader'], // 10: error, no user
        [(await userIn(w, w.areaB)).userName, ''], // 11: added as Reader (an Administrator sees every area)
      ]);
      const result = await importResult(w.context, await upload(group.id, file));
      expect(result).to.deep.equal({
        success: false,
        totalElements: 9,
        importedElements: 4,
        errors: [
          { row: 4, reason: 'No user nobody@example.com was found' },
          { row: 8, reason: 'Permission: the permission "Admin" is not valid: use Reader or Owner' },
          { row: 10, reason: 'The user name or e-mail is empty' },
        ],
        warnings: [
          { row: 5, reason: 'Same user as row 2: ignored' },
          { row: 6, reason: 'Already a member: permission changed from Reader to Owner' },
          { row: 7, reason: 'Already a member with the permission Owner' },
        ],
      });
      const members = await membersOf(w, group.id);
      expect(Object.keys(members)).to.have.length(5);
      expect(members).to.deep.include({ [byName.id]: 'Reader', [byEmail.id]: 'Owner', [existingReader.id]: 'Owner', [existingOwner.id]: 'Owner' });

      const logs = await logsOf(w, group.id);
      expect(logs.map((l) => [l.operation, l.metadata.row ?? null])).to.deep.equal([
        ['AddGroupMember', 2],
        ['AddGroupMember', 3],
        ['UpdateGroupMember', 6],
        ['AddGroupMember', 11],
        ['BulkInsert', null],
      ]);
      expect(logs.every((l) => l.user_id === w.callers.admin.id && l.user_name === w.callers.admin.userName)).to.equal(true);
      expect(logs[4]!.metadata).to.deep.equal({
        type: 'BulkInsertGroupMembers',
        groupId: group.id,
        groupName: group.name,
        fileName: 'members.xlsx',
        totalElements: 9,
        importedElements: 4,
        errors: 3,
        warnings: 3,
      });
    });

    it('announces the role change of the members it added to a group with tenant roles', async () => {
      const group = await groupIn(w, w.areaA);
      await grant(w.context.dataSource, { tenant: w.tenantA, group, roles: [w.app.roleByName.Reader!] });
      const user = await userIn(w, w.areaA);
      const heard: Array<string | undefined> = [];
      const stop = w.context.broadcast.on('roles.changed', ({ userId }) => heard.push(userId));
      try {
        expect((await importResult(w.context, await upload(group.id, await xlsx([['UserName', 'Permission'], [user.userName, 'Reader']])))).success).to.equal(true);
      } finally {
        stop();
      }
      expect(heard).to.deep.equal([user.id]);
    });

    it('undoes only the row the database refuses, keeping the rows before and after it', async () => {
      const group = await groupIn(w, w.areaA);
      const [first, refused, last] = [await userIn(w, w.areaA), await userIn(w, w.areaA), await userIn(w, w.areaA)];
      const db = w.context.dataSource;
      // A refusal no check can foresee (as if the user were deleted between the lookup and the insert).
      await db.query(`CREATE FUNCTION refuse_member() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.user_id = '${refused.id}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
      await db.query(`CREATE TRIGGER refuse_member BEFORE INSERT ON group_members FOR EACH ROW EXECUTE FUNCTION refuse_member()`);
      try {
        const result = await importResult(w.context, await upload(group.id, await xlsx([['UserName'], [first.userName], [refused.userName], [last.userName]])));
        expect(result).to.deep.include({ totalElements: 3, importedElements: 2, errors: [{ row: 3, reason: 'The row could not be saved' }] });
      } finally {
        await db.query('DROP TRIGGER refuse_member ON group_members');
        await db.query('DROP FUNCTION refuse_member()');
      }
      expect(await membersOf(w, group.id)).to.deep.equal({ [first.id]: 'Reader', [last.id]: 'Reader' });
      expect((await logsOf(w, group.id)).map((l) => [l.operation, l.metadata.row ?? null])).to.deep.equal([
        ['AddGroupMember', 2],
        ['AddGroupMember', 4],
        ['BulkInsert', null],
      ]);
    });

    it('refuses a file of more than 10,000 rows as a whole, adding nobody', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      const rows = [['UserName'], [user.userName], ...Array.from({ length: 10_000 }, (_, i) => [`user${i}@example.com`])];
      const res = await upload(group.id, await xlsx(rows));
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('The file has more than 10000 rows');
      expect(await membersOf(w, group.id)).to.deep.equal({});
    });

    it('gives row reasons in the caller’s language', async () => {
      const group = await groupIn(w, w.areaA);
      const result = await importResult(w.context, await upload(group.id, await xlsx([['UserName', 'Permission'], ['ghost@example.com', 'Reader'], ['ghost@example.com', 'x']]), { lang: 'fr' }));
      expect(result.errors).to.deep.equal([
        { row: 2, reason: 'Aucun utilisateur ghost@example.com n’a été trouvé' },
        { row: 3, reason: 'Permission : la permission « x » n’est pas valide : utilisez Reader ou Owner' },
      ]);
      expect(result).to.include({ success: false, importedElements: 0 });
    });

    it('lets an Owner AreaAdministrator import users of their areas only, and refuses a Reader one (403)', async () => {
      const group = await groupIn(w, w.areaA);
      const [mine, theirs] = [await userIn(w, w.areaA), await userIn(w, w.areaB)];
      const file = await xlsx([['Permission', 'UserName'], ['Owner', mine.userName], ['Reader', theirs.userName]]);
      await addMember(w, group, w.callers.areaAdmin, 'Reader');
      const reader = await upload(group.id, file, { as: 'areaAdmin' });
      expect(reader.status).to.equal(403);
      expect(reader.body.code).to.equal('errors.forbidden');
      expect(await membersOf(w, group.id)).to.deep.equal({ [w.callers.areaAdmin.id]: 'Reader' });

      await w.context.dataSource.query(`UPDATE group_members SET permission = 'Owner' WHERE group_id = $1`, [group.id]);
      const owner = await importResult(w.context, await upload(group.id, file, { as: 'areaAdmin' }));
      expect(owner).to.deep.include({ totalElements: 2, importedElements: 1, errors: [{ row: 3, reason: `No user ${theirs.userName} was found` }] });
      expect(await membersOf(w, group.id)).to.deep.equal({ [w.callers.areaAdmin.id]: 'Owner', [mine.id]: 'Owner' });
      expect((await upload(group.id, file, { as: 'tenantAdmin' })).status).to.equal(403);
    });

    it('answers success with nothing to do for a file with only its header', async () => {
      const group = await groupIn(w, w.areaA);
      expect(await importResult(w.context, await upload(group.id, await xlsx([['UserName', 'Permission']])))).to.deep.equal({
        success: true,
        totalElements: 0,
        importedElements: 0,
        errors: [],
        warnings: [],
      });
    });

    it('refuses a file that is not .xlsx with "Extension not allowed" (en, fr)', async () => {
      const group = await groupIn(w, w.areaA);
      const file = await xlsx([['UserName'], [(await userIn(w, w.areaA)).userName]]);
      const en = await upload(group.id, file, { name: 'members.csv' });
      expect(en.status).to.equal(400);
      expect(en.body).to.include({ code: 'groups.extension_not_allowed', message: 'Extension not allowed' });
      expect(en.body.errors).to.deep.equal([{ field: 'file', code: 'groups.extension_not_allowed', message: 'Extension not allowed' }]);
      const fr = await upload(group.id, file, { name: 'members.xls', lang: 'fr' });
      expect(fr.body.message).to.equal('Extension non autorisée');
      expect(await membersOf(w, group.id)).to.deep.equal({});
    });

    it('refuses a file over 2 MB with 413 and a clear message, never a 500', async () => {
      const group = await groupIn(w, w.areaA);
      const res = await upload(group.id, randomBytes(2 * 1024 * 1024 + 1), { lang: 'fr' });
      expect(res.status).to.equal(413);
      expect(res.body).to.include({ code: 'groups.file_too_large', message: 'Le fichier dépasse la limite de 2 MB' });
      expect(res.body.errors[0]).to.include({ field: 'file' });
    });

    it('refuses a file far over 2 MB by its Content-Length, before reading it', async () => {
      const group = await groupIn(w, w.areaA);
      const res = await upload(group.id, Buffer.alloc(3 * 1024 * 1024, 1)).catch((error: { response?: request.Response }) => error.response!);
      expect(res.status).to.equal(413);
      expect(res.body).to.include({ code: 'groups.file_too_large', message: 'The file is larger than the limit of 2 MB' });
      expect(await membersOf(w, group.id)).to.deep.equal({});
    });

    it('reads a file whose data validations and conditional formats span the whole sheet without expanding them', async function () {
      // Expanded to one entry per cell, as a whole-workbook read does, these would exhaust memory.
      this.timeout(20_000);
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Members');
      sheet.addRow(['UserName']);
      sheet.addRow([user.userName]);
      // exceljs' types leave out the sheet-level validations.
      (sheet as unknown as { dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void } }).dataValidations.add('A1:XFD1048576', {
        type: 'list',
        allowBlank: true,
        formulae: ['"Reader,Owner"'],
      });
      sheet.addConditionalFormatting({ ref: 'A1:XFD1048576', rules: [{ type: 'expression', priority: 1, formulae: ['TRUE'] }] });
      const result = await importResult(w.context, await upload(group.id, Buffer.from(await workbook.xlsx.writeBuffer())));
      expect(result).to.include({ success: true, totalElements: 1, importedElements: 1 });
    });

    it('names the file field when it is missing, sent under another name, unreadable or without a user column', async () => {
      const group = await groupIn(w, w.areaA);
      const missing = await upload(group.id, undefined);
      expect(missing.status).to.equal(400);
      expect(missing.body.errors).to.deep.equal([{ field: 'file', code: 'groups.file_required', message: 'Please choose a file to upload' }]);
      const otherField = await upload(group.id, await xlsx([['UserName']]), { field: 'document' });
      expect(otherField.status).to.equal(400);
      expect(otherField.body.errors[0]).to.include({ field: 'file', code: 'groups.upload_invalid' });
      const garbage = await upload(group.id, Buffer.from('this is not a zip file'));
      expect(garbage.status).to.equal(400);
      expect(garbage.body.errors).to.deep.equal([{ field: 'file', code: 'groups.workbook_unreadable', message: 'The file could not be read as an Excel workbook (.xlsx)' }]);
      const noColumn = await upload(group.id, await xlsx([['Name', 'Permission'], ['someone', 'Reader']]));
      expect(noColumn.status).to.equal(400);
      expect(noColumn.body.message).to.equal('The first row of the file must have a UserName column');
      expect(await logsOf(w, group.id)).to.deep.equal([]);
    });

    it('answers 404 for an unknown or malformed group before reading the upload', async () => {
      const file = await xlsx([['UserName']]);
      expect((await upload(randomUUID(), file)).status).to.equal(404);
      expect((await upload('nope', file)).status).to.equal(404);
    });

    it('notifies the requester with the import result', async () => {
      const group = await groupIn(w, w.areaA);
      const user = await userIn(w, w.areaA);
      const result = await importResult(w.context, await upload(group.id, await xlsx([['UserName'], [user.userName], ['ghost@example.com']])));
      const notification = await jobNotification(w, w.callers.admin.id, 'BulkInsertGroupMembers', (n) => JSON.stringify(n.data) === JSON.stringify(result));
      expect(notification.data).to.deep.equal({
        success: false,
        totalElements: 2,
        importedElements: 1,
        errors: [{ row: 3, reason: 'No user ghost@example.com was found' }],
        warnings: [],
      });
    });

    it('imports nothing for an Owner who is no longer one when the job runs', async () => {
      const group = await groupIn(w, w.areaA);
      const owner = await userIn(w, w.areaA);
      await grant(w.context.dataSource, { tenant: w.tenantA, user: owner, roles: [w.identity.roleByName.AreaAdministrator!] });
      await addMember(w, group, owner, 'Owner');
      const recruit = await userIn(w, w.areaA);
      // Made a Reader between the upload (accepted: an Owner's) and the job.
      const undo = await whenJobStarts(w.context, owner.id, {
        statement: `UPDATE group_members SET permission = 'Reader' WHERE group_id = '${group.id}' AND user_id = '${owner.id}';`,
      });
      try {
        const res = await request(w.server)
          .post(`/api/v1/admin/groups/bulk_insert/${group.id}`)
          .set('Authorization', await bearer(w, 'areaAdmin', owner))
          .set('Accept-Language', 'fr')
          .attach('file', await xlsx([['UserName'], [recruit.userName]]), 'members.xlsx');
        const job = await queuedJob(w.context, res);
        expect(job).to.include({ status: 'Failed', error: 'Vous n’avez pas la permission d’effectuer cette action', result: null });
      } finally {
        await undo();
      }
      expect(await membersOf(w, group.id)).to.deep.equal({ [owner.id]: 'Reader' });
      expect(await logsOf(w, group.id)).to.deep.equal([]);
      expect(await w.context.dataSource.query(`SELECT 1 FROM stored_files WHERE owner_id = $1`, [owner.id])).to.have.length(0);
    });

    it('fails the job of a group deleted since the upload, adding nobody', async () => {
      const group = await groupIn(w, w.areaA);
      const requester = await userIn(w, w.areaA);
      await grant(w.context.dataSource, { tenant: GLOBAL_TENANT_ID, user: requester, roles: [w.identity.roleByName.Administrator!] });
      const undo = await whenJobStarts(w.context, requester.id, { statement: `DELETE FROM groups WHERE id = '${group.id}';` });
      try {
        const res = await request(w.server)
          .post(`/api/v1/admin/groups/bulk_insert/${group.id}`)
          .set('Authorization', await bearer(w, 'admin', requester))
          .set('Accept-Language', 'en')
          .attach('file', await xlsx([['UserName'], [(await userIn(w, w.areaA)).userName]]), 'members.xlsx');
        expect(await queuedJob(w.context, res)).to.include({ status: 'Failed', error: 'Not found' });
      } finally {
        await undo();
      }
      expect(await membersOf(w, group.id)).to.deep.equal({});
    });
  });
});
