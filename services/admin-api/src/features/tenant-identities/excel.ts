import { LANGUAGES, type AppContext } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import type { Authority } from '@gatehouse/core/access';
import type { CallerScope } from '../../auth/scope.js';
import { styleHeaderRow, workbookBuffer, type ColumnSpec } from '../../excel/workbook.js';
import { mayGrantRole } from './rules.js';
import { roleValues, tenantValues } from './repository.js';

/** Which import: users or groups, each given roles in tenants. */
export type IdentityKind = 'users' | 'groups';

/** The columns of each import, in template order; the first names the identity. */
export const IMPORT_COLUMNS = {
  users: ['user', 'tenant', 'application', 'role', 'inheritable'],
  groups: ['group', 'tenant', 'application', 'role', 'inheritable'],
} as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[IdentityKind][number];

/** Rows one file may hold, as in the other imports. */
export const MAX_IMPORT_ROWS = 10_000;
/** Template rows prepared with drop-down lists. */
const TEMPLATE_ROWS = 1000;

/** Headers every file may use besides the template's own (in any of the product's languages). */
const ENGLISH_ALIASES: Record<ImportColumn, string[]> = {
  user: ['UserName', 'User', 'Email', 'E-mail', 'Login', 'UserName or Email'],
  group: ['Group', 'GroupName', 'Group name', 'GroupId'],
  tenant: ['Tenant', 'TenantId', 'Tenant title', 'Entity'],
  application: ['Application', 'ApplicationName', 'App'],
  role: ['Role', 'RoleName'],
  inheritable: ['Inheritable', 'IsInheritable'],
};

const t = (context: AppContext, language: string, key: string, params: Record<string, unknown> = {}) =>
  context.i18n.t(`tenants.identities_import.${key}`, { lng: language, ...params }) as string;

/**
 * The columns the import reads, found by their header in the first row in any order: the
 * template's header in any of the product's languages (a file filled in by a French and an English
 * colleague reads the same), or one of the plain English names.
 */
export function importColumns(context: AppContext, kind: IdentityKind): Array<ColumnSpec<ImportColumn>> {
  return IMPORT_COLUMNS[kind].map((key) => ({
    key,
    header: t(context, 'en', `columns.${key}`),
    aliases: [...new Set([...LANGUAGES.map((language) => t(context, language, `columns.${key}`)), ...ENGLISH_ALIASES[key]])],
    // Inheritable may be left out: new memberships are inheritable, as in the console's dialogs.
    required: key !== 'inheritable',
  }));
}

/**
 * The template of one import: its headers in the caller's language with a note on each, drop-down
 * lists for the tenant and Inheritable, and a second sheet listing the tenants (title and id) and
 * the roles (with their application) the caller may give.
 */
export async function identityTemplate(context: AppContext, scope: CallerScope, authority: Authority, kind: IdentityKind, language: string): Promise<Buffer> {
  const db = context.dataSource;
  const [tenants, roles] = await Promise.all([tenantValues(db, scope.areaIds, scope.isAdministrator), roleValues(db)]);
  // What the import would refuse is not offered: the Identity application's roles to non-administrators,
  // God to non-God, and (to users) the roles granted through the hierarchy only.
  const grantable = roles.filter((role) => mayGrantRole(authority, role.applicationId, role.roleName) && (kind === 'groups' || !role.byHierarchy));
  const yes = t(context, language, 'yes');
  const no = t(context, language, 'no');

  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Gatehouse';
  const sheet = workbook.addWorksheet(t(context, language, `${kind}_sheet`).slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  const valuesName = t(context, language, 'values_sheet').slice(0, 31);
  const values = workbook.addWorksheet(valuesName);

  const columns = IMPORT_COLUMNS[kind];
  sheet.columns = columns.map((key) => ({ header: t(context, language, `columns.${key}`), key, width: key === 'user' || key === 'group' || key === 'tenant' ? 36 : 22 }));
  styleHeaderRow(sheet.getRow(1));
  columns.forEach((key, i) => {
    sheet.getCell(1, i + 1).note = t(context, language, `notes.${key}`, { sheet: valuesName, yes, no });
  });

  values.columns = [
    { header: t(context, language, 'values.tenant'), width: 36 },
    { header: t(context, language, 'values.tenant_id'), width: 38 },
    { header: t(context, language, 'values.application'), width: 28 },
    { header: t(context, language, 'values.role'), width: 28 },
    { header: t(context, language, 'values.inheritable'), width: 14 },
  ];
  styleHeaderRow(values.getRow(1));
  const rows = Math.max(tenants.length, grantable.length, 2);
  for (let i = 0; i < rows; i++) {
    const tenant = tenants[i];
    const role = grantable[i];
    values.addRow([tenant?.title ?? null, tenant?.id ?? null, role?.applicationName ?? null, role?.roleName ?? null, [yes, no][i] ?? null]);
  }

  const quoted = `'${valuesName.replace(/'/g, "''")}'`;
  const letter = (key: ImportColumn) => String.fromCharCode(65 + (columns as readonly ImportColumn[]).indexOf(key));
  const list = (key: ImportColumn, source: string) =>
    // exceljs' types leave out the sheet-level validations; a per-cell one would write a cell per row.
    (sheet as unknown as { dataValidations: { add(range: string, rule: ExcelJS.DataValidation): void } }).dataValidations.add(
      `${letter(key)}2:${letter(key)}${TEMPLATE_ROWS + 1}`,
      // Any text passes the tenant's list: a tenant may also be given by its id.
      { type: 'list', allowBlank: true, formulae: [source], showErrorMessage: key === 'inheritable', errorStyle: 'stop' },
    );
  if (tenants.length) list('tenant', `${quoted}!$A$2:$A$${tenants.length + 1}`);
  list('inheritable', `${quoted}!$E$2:$E$3`);
  return workbookBuffer(workbook);
}
