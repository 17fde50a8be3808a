import { PassThrough, type Readable } from 'node:stream';
import { en } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, type AppContext, type Logger } from '@gatehouse/core';
import ExcelJS from 'exceljs';
import type {
  DisclaimerRow,
  GroupRow,
  LinkedAccountRow,
  MembershipRow,
  ProfileRow,
  RightsRequestRow,
  SignInRow,
} from './repository.js';

/** The media type of an .xlsx workbook. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Everything the product keeps about one person, as the workbook shows it. */
export interface MyData {
  profile: ProfileRow;
  linkedAccounts: LinkedAccountRow[];
  favourites: string[];
  memberships: MembershipRow[];
  groups: GroupRow[];
  disclaimers: DisclaimerRow[];
  signIns: SignInRow[];
  rightsRequests: RightsRequestRow[];
}

type Cell = string | number | Date | null;
type Translate = (key: string) => string;

interface Column {
  /** Its header's key under `myData.columns`. */
  key: string;
  width: number;
}

const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const HEADER_FONT: Partial<ExcelJS.Font> = { bold: true, color: { argb: 'FFFFFFFF' } };
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E78' } };

/** One sheet: a styled header row, then the rows, dates shown as dates (UTC). */
function addSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, t: Translate, sheetKey: string, columns: Column[], rows: Cell[][]): void {
  const sheet = workbook.addWorksheet(t(`sheets.${sheetKey}`), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((column) => ({ header: t(`columns.${column.key}`), width: column.width }));
  const header = sheet.getRow(1);
  header.font = HEADER_FONT;
  header.fill = HEADER_FILL;
  header.commit();
  for (const values of rows) {
    const row = sheet.addRow(values);
    row.eachCell((cell) => {
      if (cell.value instanceof Date) cell.numFmt = DATE_FORMAT;
    });
    row.commit();
  }
  sheet.commit();
}

function profileRows(data: MyData, t: Translate): Cell[][] {
  const p = data.profile;
  const yesNo = (value: boolean) => t(value ? 'values.yes' : 'values.no');
  const fields: Array<[string, Cell]> = [
    ['user_name', p.user_name],
    ['email', p.email],
    ['first_name', p.first_name],
    ['last_name', p.last_name],
    ['phone_number', p.phone_number],
    ['job_title', p.job_title],
    ['manager', p.manager],
    ['teams', (p.teams ?? []).join(', ')],
    ['language', p.language],
    ['area', p.area_name],
    ['user_type', t(p.user_type === 2 ? 'values.external' : 'values.internal')],
    ['internal_category', p.internal_category],
    ['email_verified', yesNo(p.email_verified)],
    ['draft', yesNo(p.draft)],
    ['locked', yesNo(p.locked)],
    ['authenticator', yesNo(p.totp_enabled_at !== null)],
    ['password_changed_at', p.password_changed_at],
    ['last_login_at', p.last_login_at],
    ['created_at', p.created_at],
    ['modified_on', p.modified_on],
    ['picture', p.picture_updated_at],
    ['linked_accounts', data.linkedAccounts.map((account) => account.email ?? account.provider).join(', ')],
    ['favourites', data.favourites.join(', ')],
  ];
  return fields.map(([key, value]) => [t(`fields.${key}`), value === '' ? null : value]);
}

const GRANTED: Record<string, string> = { Own: 'values.own', ByHierarchy: 'values.inherited', Both: 'values.both' };

function membershipRows(data: MyData, t: Translate): Cell[][] {
  return data.memberships.map((m) => [
    m.tenantId === GLOBAL_TENANT_ID ? t('values.global_tenant') : (m.tenantTitle ?? m.tenantId),
    m.applicationDisplayName ?? m.applicationName,
    m.roleName,
    t(GRANTED[m.hierarchyType] ?? 'values.own'),
  ]);
}

type LabelGroup = 'results' | 'providers' | 'permissions' | 'request_types' | 'rights';

/** A stored value in the reader's words when the product knows it, as it is otherwise. */
const label = (t: Translate, group: LabelGroup, value: string) => (Object.hasOwn(en.myData[group], value) ? t(`${group}.${value}`) : value);

function writeSheets(workbook: ExcelJS.stream.xlsx.WorkbookWriter, data: MyData, t: Translate): void {
  addSheet(workbook, t, 'profile', [{ key: 'field', width: 34 }, { key: 'value', width: 48 }], profileRows(data, t));
  addSheet(
    workbook,
    t,
    'memberships',
    [{ key: 'tenant', width: 32 }, { key: 'application', width: 28 }, { key: 'role', width: 24 }, { key: 'granted', width: 24 }],
    membershipRows(data, t),
  );
  addSheet(
    workbook,
    t,
    'groups',
    [{ key: 'group', width: 32 }, { key: 'permission', width: 16 }, { key: 'member_since', width: 22 }],
    data.groups.map((g) => [g.name, label(t, 'permissions', g.permission), g.created_at]),
  );
  addSheet(
    workbook,
    t,
    'disclaimers',
    [{ key: 'application', width: 32 }, { key: 'accepted_on', width: 22 }],
    data.disclaimers.map((d) => [d.application, d.accepted_at]),
  );
  addSheet(
    workbook,
    t,
    'sign_ins',
    [{ key: 'date', width: 22 }, { key: 'result', width: 18 }, { key: 'provider', width: 18 }, { key: 'ip', width: 20 }, { key: 'user_agent', width: 60 }],
    data.signIns.map((s) => [s.date, label(t, 'results', s.result), label(t, 'providers', s.authentication_provider), s.ip, s.user_agent]),
  );
  addSheet(
    workbook,
    t,
    'rights_requests',
    [{ key: 'request_date', width: 16 }, { key: 'request_type', width: 22 }, { key: 'rights', width: 60 }, { key: 'sent_on', width: 22 }],
    data.rightsRequests.map((r) => [
      r.request_date,
      label(t, 'request_types', r.request_type),
      r.rights.map((right) => label(t, 'rights', right)).join(', '),
      r.created_at,
    ]),
  );
}

/**
 * The person's data as an .xlsx in `language`, streamed through exceljs's writer (no shared
 * strings: nothing is kept in memory beyond the rows being written). The data is all read
 * before, so a failing query answers a proper error; a failure while zipping can only cut the
 * download short.
 */
export function myDataWorkbook(context: AppContext, data: MyData, language: string, log: Logger = context.logger): Readable {
  const t: Translate = (key) => context.i18n.t(`myData.${key}`, { lng: language }) as string;
  const out = new PassThrough();
  const fail = (error: unknown) => {
    log.error({ err: error }, 'my data download failed after it started');
    out.destroy();
  };
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  (workbook as unknown as { zip: NodeJS.EventEmitter }).zip.on('error', fail);
  writeSheets(workbook, data, t);
  workbook.commit().catch(fail);
  return out;
}
