import { ADMINISTRATOR_ROLE } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, PermanentJobError, type AppContext, type JobHandler } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import { styleHeaderRow } from '../../excel/workbook.js';
import { XLSX_MEDIA_TYPE, storeFile } from './files.js';
import { jobLanguage } from './runtime.js';

interface AdminRow {
  application: string;
  user_name: string;
  email: string;
  area: string | null;
  through: string | null;
}

/** Every global administrator of every application: one row per user and way they hold it. */
export async function listGlobalAdministrators(context: AppContext): Promise<AdminRow[]> {
  return context.dataSource.query(
    `WITH admin_roles AS (SELECT id, application_id FROM roles WHERE name = $2),
     grants AS (
       SELECT tmr.role_id, tm.user_id, tm.group_id
         FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
        WHERE tm.tenant_id = $1 AND tmr.role_id IN (SELECT id FROM admin_roles)
     ),
     holders AS (
       SELECT role_id, user_id, NULL::uuid AS group_id FROM grants WHERE user_id IS NOT NULL
       UNION
       SELECT g.role_id, gm.user_id, g.group_id FROM grants g JOIN group_members gm ON gm.group_id = g.group_id
     )
     SELECT a.display_name AS application, u.user_name, u.email, ar2.name AS area, gr.name AS through
       FROM holders h
       JOIN admin_roles ar ON ar.id = h.role_id
       JOIN applications a ON a.id = ar.application_id
       JOIN users u ON u.id = h.user_id
       LEFT JOIN areas ar2 ON ar2.id = u.area_id
       LEFT JOIN groups gr ON gr.id = h.group_id
      ORDER BY a.display_name, u.user_name, gr.name NULLS FIRST`,
    [GLOBAL_TENANT_ID, ADMINISTRATOR_ROLE],
  );
}

/** The AdminReport job: the workbook of global administrators per application, stored for its requester, in their language. */
export function adminReportHandler(context: AppContext): JobHandler {
  return async ({ userId, payload, progress }) => {
    if (!userId) throw new PermanentJobError('the report has no requester to deliver it to');
    const lng = await jobLanguage(context, userId, payload.language);
    const t = (key: string, params: Record<string, unknown> = {}) => context.i18n.t(`jobs.adminReport.${key}`, { lng, ...params }) as string;
    const rows = await listGlobalAdministrators(context);
    await progress(0, rows.length);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet(t('sheet').slice(0, 31));
    sheet.columns = [
      { header: t('application'), key: 'application', width: 30 },
      { header: t('userName'), key: 'userName', width: 30 },
      { header: t('email'), key: 'email', width: 34 },
      { header: t('area'), key: 'area', width: 20 },
      { header: t('through'), key: 'through', width: 24 },
    ];
    styleHeaderRow(sheet.getRow(1));
    let done = 0;
    for (const row of rows) {
      sheet.addRow({ application: row.application, userName: row.user_name, email: row.email, area: row.area ?? '', through: row.through ? t('group', { name: row.through }) : t('direct') });
      done += 1;
      if (done % 500 === 0) await progress(done, rows.length);
    }
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const fileId = await storeFile(context, { ownerId: userId, fileName: `admin-report-${new Date().toISOString().slice(0, 10)}.xlsx`, mediaType: XLSX_MEDIA_TYPE, bytes });
    await progress(rows.length, rows.length);
    return { fileUrl: fileId, rows: rows.length };
  };
}
