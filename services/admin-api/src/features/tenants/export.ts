import { tenantsRoutes, type Tenant, type TenantMember } from '@gatehouse/contracts';
import { toListQuery, type AppContext, type JobHandler } from '@gatehouse/core';
import { exportJob, offsetPages, type ExportColumn, type ExportWords } from '../jobs/exports.js';
import { MEMBER_SORT } from './members-repository.js';
import { TenantMembersService } from './members-service.js';
import { TENANT_SORT } from './repository.js';
import { TenantsService } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/** The list's and the export's filters, from their query. */
export const filtersOf = (query: { area?: string; isUserCustomized?: boolean; creation?: 'Auto' | 'Manual'; parent?: string; includeHierarchy?: boolean }) => ({
  areaId: query.area,
  isUserCustomized: query.isUserCustomized,
  creation: query.creation,
  parentId: query.parent,
  includeHierarchy: query.includeHierarchy,
});

const tenantColumns = (words: ExportWords): Array<ExportColumn<Tenant>> => [
  { key: 'title', width: 32, value: (t) => t.title },
  { key: 'area', width: 20, value: (t) => t.areaName },
  { key: 'parent', width: 32, value: (t) => t.parentTitle },
  { key: 'hierarchy', width: 48, value: (t) => (t.hierarchyItems ?? []).map((item) => item.title).join(' / ') || null },
  { key: 'taxNumber', width: 16, value: (t) => t.taxNumber },
  { key: 'viesNumber', width: 16, value: (t) => t.viesNumber },
  { key: 'groupAlias', width: 20, value: (t) => t.groupAlias },
  { key: 'creation', width: 12, value: (t) => words.state('creation', t.auto) },
  { key: 'customized', width: 12, value: (t) => words.yesNo(t.isUserCustomized) },
  { key: 'twoModeAuth', width: 12, value: (t) => words.yesNo(t.requiredTwoModeAuthentification) },
  { key: 'children', width: 10, value: (t) => t.childrenCount },
  { key: 'modifiedOn', width: 20, value: (t) => new Date(t.modifiedOn), date: true },
];

/**
 * The ExportTenants job: Tenants.xlsx, the tenants the list's filters select in its order, each
 * with its ancestors' path, within the requester's areas as they are when it runs.
 */
export function exportTenantsHandler(context: AdminContext): JobHandler {
  const service = new TenantsService(context);
  return exportJob(context, tenantsRoutes.export, async ({ scope, query, language, words }) => {
    const t = (key: string) => context.i18n.t(`tenants.export.${key}`, { lng: language }) as string;
    const { orderBy } = toListQuery({ ...query, skip: 0, top: 1 }, TENANT_SORT);
    const list = (skip: number, top: number, includeHierarchy: boolean) =>
      service.list(scope, { search: query.$search ?? null, skip, top, orderBy }, { ...filtersOf(query), includeHierarchy });
    return {
      fileName: 'Tenants.xlsx',
      sheetName: t('sheet'),
      header: (key) => t(`columns.${key}`),
      columns: tenantColumns(words),
      total: (await list(0, 1, false)).count,
      pages: offsetPages(async (skip, top) => (await list(skip, top, true)).items.map((tenant) => [tenant])),
    };
  });
}

/** One line of the members export: a member and one of its roles (none for a member left without any). */
interface MemberLine {
  member: TenantMember;
  role?: TenantMember['roles'][number];
}

const memberColumns = (words: ExportWords): Array<ExportColumn<MemberLine>> => [
  { key: 'identityType', width: 12, value: (l) => words.state('identityType', l.member.identityType) },
  { key: 'displayName', width: 32, value: (l) => l.member.displayName },
  { key: 'email', width: 32, value: (l) => l.member.email },
  { key: 'isInheritable', width: 12, value: (l) => words.yesNo(l.member.isInheritable) },
  { key: 'hierarchyType', width: 22, value: (l) => words.state('hierarchyType', l.member.hierarchyType) },
  { key: 'application', width: 24, value: (l) => l.role?.applicationName ?? null },
  { key: 'role', width: 24, value: (l) => l.role?.roleName ?? null },
  { key: 'roleHierarchyType', width: 22, value: (l) => words.state('hierarchyType', l.role?.hierarchyType) },
];

/**
 * The ExportMembers job: Members.xlsx, the tenant's members with one line per role, by name. The
 * tenant must still be in the requester's areas when it runs.
 */
export function exportMembersHandler(context: AdminContext): JobHandler {
  const members = new TenantMembersService(context);
  return exportJob(context, tenantsRoutes.membersExport, async ({ scope, params, query, language, words }) => {
    const t = (key: string) => context.i18n.t(`tenants.export.${key}`, { lng: language }) as string;
    const first = { search: null, skip: 0, top: 1, orderBy: `${MEMBER_SORT.displayName} ASC` };
    const { count } = await members.list(scope, params.id, first, { excludeUserGlobal: query.excludeUserGlobal });
    return {
      fileName: 'Members.xlsx',
      sheetName: t('members_sheet'),
      header: (key) => t(`member_columns.${key}`),
      columns: memberColumns(words),
      total: count,
      pages: offsetPages(async (skip, top) =>
        (await members.batch(scope, params.id, query.excludeUserGlobal, skip, top)).map((member) =>
          member.roles.length ? member.roles.map((role) => ({ member, role })) : [{ member }],
        ),
      ),
    };
  });
}
