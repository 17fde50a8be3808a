import { PassThrough } from 'node:stream';
import type { Tenant, TenantMember } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import { styleHeaderRow } from '../../excel/workbook.js';

/** Rows read per query. */
export const EXPORT_BATCH_SIZE = 2000;

interface Column<R> {
  key: string;
  width: number;
  value: (row: R) => unknown;
  date?: boolean;
}

const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: 'yyyy-mm-dd hh:mm:ss' };

/**
 * A one-sheet workbook of the rows `read` hands over a batch at a time (an empty batch ends it),
 * headers in the caller's language. exceljs's streaming writer keeps only the zipped output in
 * memory; the whole file is built before anything is sent, so a failing query still answers a
 * proper error.
 */
async function workbookOf<R>(
  sheetName: string,
  headers: (key: string) => string,
  columns: Array<Column<R>>,
  read: (skip: number) => Promise<R[][]>,
): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((column) => ({ header: headers(column.key), key: column.key, width: column.width }));
  styleHeaderRow(sheet.getRow(1));
  sheet.getRow(1).commit();
  for (let skip = 0; ; ) {
    const batch = await read(skip);
    if (batch.length === 0) break;
    skip += batch.length;
    for (const rows of batch) {
      for (const item of rows) {
        const row = sheet.addRow(columns.map((column) => column.value(item)));
        row.eachCell({ includeEmpty: true }, (cell, index) => {
          cell.style = columns[index - 1]?.date ? DATE_STYLE : PLAIN_STYLE;
        });
        row.commit();
      }
    }
  }
  sheet.commit();
  await workbook.commit();
  await ended;
  return Buffer.concat(chunks);
}

const TENANT_COLUMNS: Array<Column<Tenant>> = [
  { key: 'title', width: 32, value: (t) => t.title },
  { key: 'area', width: 20, value: (t) => t.areaName },
  { key: 'parent', width: 32, value: (t) => t.parentTitle },
  { key: 'hierarchy', width: 48, value: (t) => (t.hierarchyItems ?? []).map((item) => item.title).join(' / ') || null },
  { key: 'taxNumber', width: 16, value: (t) => t.taxNumber },
  { key: 'viesNumber', width: 16, value: (t) => t.viesNumber },
  { key: 'groupAlias', width: 20, value: (t) => t.groupAlias },
  { key: 'creation', width: 10, value: (t) => t.auto },
  { key: 'customized', width: 12, value: (t) => t.isUserCustomized },
  { key: 'twoModeAuth', width: 12, value: (t) => t.requiredTwoModeAuthentification },
  { key: 'children', width: 10, value: (t) => t.childrenCount },
  { key: 'modifiedOn', width: 20, value: (t) => new Date(t.modifiedOn), date: true },
];

/** Tenants.xlsx: the tenants `read` selects (the list's filters and sort), each with its ancestors' path. */
export function tenantsWorkbook(context: AppContext, language: string, read: (skip: number, top: number) => Promise<Tenant[]>): Promise<Buffer> {
  const t = (key: string) => context.i18n.t(`tenants.export.${key}`, { lng: language }) as string;
  return workbookOf(t('sheet'), (key) => t(`columns.${key}`), TENANT_COLUMNS, async (skip) =>
    (await read(skip, EXPORT_BATCH_SIZE)).map((tenant) => [tenant]),
  );
}

/** One line of the members export: a member and one of its roles (none for a member left without any). */
interface MemberLine {
  member: TenantMember;
  role?: TenantMember['roles'][number];
}

const MEMBER_COLUMNS: Array<Column<MemberLine>> = [
  { key: 'identityType', width: 10, value: (l) => l.member.identityType },
  { key: 'displayName', width: 32, value: (l) => l.member.displayName },
  { key: 'email', width: 32, value: (l) => l.member.email },
  { key: 'isInheritable', width: 12, value: (l) => l.member.isInheritable },
  { key: 'hierarchyType', width: 14, value: (l) => l.member.hierarchyType },
  { key: 'application', width: 24, value: (l) => l.role?.applicationName ?? null },
  { key: 'role', width: 24, value: (l) => l.role?.roleName ?? null },
  { key: 'roleHierarchyType', width: 14, value: (l) => l.role?.hierarchyType ?? null },
];

/** The tenant's members as a workbook: one line per member and role. */
export function membersWorkbook(context: AppContext, language: string, read: (skip: number, top: number) => Promise<TenantMember[]>): Promise<Buffer> {
  const t = (key: string) => context.i18n.t(`tenants.export.${key}`, { lng: language }) as string;
  return workbookOf(t('members_sheet'), (key) => t(`member_columns.${key}`), MEMBER_COLUMNS, async (skip) =>
    (await read(skip, EXPORT_BATCH_SIZE)).map((member) => (member.roles.length ? member.roles.map((role) => ({ member, role })) : [{ member }])),
  );
}
