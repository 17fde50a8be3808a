import { BreakableText, RoleTag, identifying } from '@gatehouse/frontend-shared';
import Select from 'antd/es/select';
import type { ColumnsType } from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import { Link } from 'react-router';
import { breadcrumbState, type Crumb } from '../../../shell/PageHeader';
import { DataTable } from '../../directory/components/DataTable';
import { listTableProps, toListQuery, useListState, type ListStateHook } from '../../directory/components/list-state';
import { AreaSelect } from '../../directory/components/selects';
import { applicationCrumbs } from '../roles/crumbs';
import { useApplicationRolesTranslation, type ApplicationRolesT } from '../roles/use-application-roles-translation';
import { useApplicationUsersQuery, type ApplicationUser } from './application-users-api';
import '../roles/app-roles.css';

type GlobalRolesFilter = '' | 'true' | 'false';

/** The list's filters: global roles (any, with, without) and the users' area. */
function UsersFilters({ list: [state, setState] }: { list: ListStateHook }) {
  const { t } = useApplicationRolesTranslation();
  const filter = (name: string, value: string | undefined) => setState({ filters: { ...state.filters, [name]: value ?? '' } });
  return (
    <>
      <Select<GlobalRolesFilter>
        className="directory-filter"
        aria-label={t('users.globalRoles')}
        value={(state.filters.globalRoles ?? '') as GlobalRolesFilter}
        onChange={(value) => filter('globalRoles', value)}
        options={[
          { value: '', label: t('users.globalAny') },
          { value: 'true', label: t('users.globalOnly') },
          { value: 'false', label: t('users.globalNone') },
        ]}
      />
      <AreaSelect
        className="directory-filter"
        aria-label={t('users.area')}
        placeholder={t('users.allAreas')}
        allowClear
        value={state.filters.areaId || undefined}
        onChange={(areaId) => filter('areaId', areaId)}
      />
    </>
  );
}

function userColumns(t: ApplicationRolesT, trail: Crumb[], applicationName: string): ColumnsType<ApplicationUser> {
  return [
    identifying({
      key: 'userName',
      title: t('users.userName'),
      sorter: true,
      render: (_, user) => (
        <Link to={`${trail[1]!.to}/${encodeURIComponent(user.id)}`} state={breadcrumbState([...trail, { title: user.userName }])}>
          <BreakableText text={user.userName} />
        </Link>
      ),
    }),
    { key: 'firstName', dataIndex: 'firstName', title: t('users.firstName'), sorter: true },
    { key: 'lastName', dataIndex: 'lastName', title: t('users.lastName'), sorter: true },
    identifying({ key: 'email', dataIndex: 'email', title: t('users.email'), sorter: true }),
    { key: 'areaName', dataIndex: 'areaName', title: t('users.area'), sorter: true },
    {
      key: 'roles',
      title: t('users.roles'),
      render: (_, user) => (
        <span className="app-roles-users-roles">
          {user.roles.map((role) => (
            <Tooltip key={role.id} title={role.description ?? undefined}>
              {/* A role held in the Global tenant: blue, and said so to a screen reader. */}
              <span aria-label={role.isGlobal ? t('users.globalRole', { name: role.name }) : undefined}>
                <RoleTag application={applicationName} role={role.name} origins={role.origins} color={role.isGlobal ? 'blue' : 'default'} />
              </span>
            </Tooltip>
          ))}
        </span>
      ),
    },
  ];
}

export interface ApplicationUsersTabProps {
  applicationId: string;
  /** The application's display name, for the trail a user's page shows (its id without it). */
  applicationName?: string;
}

/**
 * An application's Users tab: the users holding its roles (their own or through a group) with
 * those roles, global ones in blue; filters on global roles and area; each user links to their
 * page, whose trail leads back to this tab.
 */
export function ApplicationUsersTab({ applicationId, applicationName = applicationId }: ApplicationUsersTabProps) {
  const { t } = useApplicationRolesTranslation();
  const list = useListState(undefined, { sort: { field: 'email', direction: 'asc' } });
  const users = useApplicationUsersQuery({ appId: applicationId, query: toListQuery(list[0]) }, { refetchOnMountOrArgChange: true });
  const [applications, application] = applicationCrumbs(t, applicationId, applicationName);
  const columns = userColumns(t, [applications!, { ...application!, to: `${application!.to}/users` }], applicationName);

  return (
    <>
      <DataTable<ApplicationUser>
        label={t('users.title')}
        rowKey="id"
        columns={columns}
        {...listTableProps(list, users)}
        filters={<UsersFilters list={list} />}
      />
      <p className="app-roles-legend">{t('users.globalLegend')}</p>
    </>
  );
}
