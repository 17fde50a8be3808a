import { useFormatDateTime } from '@gatehouse/frontend-shared';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { ListStateHook } from '../directory/components/list-state';
import { TenantSelect } from '../directory/components/selects';
import { userColumn } from './acted-by';
import { DateRangeFilter } from './DateRangeFilter';
import { FlagFilter, TextFilter } from './filters';
import { logQueryOf, useLogList } from './log-parts';
import { useSessionLogsQuery, type SessionLog } from './logs-api';
import { LogTable } from './LogTable';
import { useLogsTranslation } from './use-logs-translation';

/** The Session Logs tab: the tokens issued to applications for users, by date range, application and tenant. */
export function SessionLogsTab() {
  const { t } = useLogsTranslation();
  const formatDateTime = useFormatDateTime();
  const list = useLogList('session');
  const logs = useSessionLogsQuery(logQueryOf(list[0]), { refetchOnMountOrArgChange: true });

  const columns: ColumnsType<SessionLog> = [
    userColumn<SessionLog>(t('columns.userName')),
    { key: 'date', title: t('columns.date'), sorter: true, width: 180, render: (_, log) => formatDateTime(log.date) },
    { key: 'applicationName', dataIndex: 'applicationName', title: t('columns.application'), sorter: true },
    { key: 'tenantName', dataIndex: 'tenantName', title: t('columns.tenant') },
    {
      key: 'roles',
      title: t('columns.roles'),
      render: (_, log) => (
        <span className="logs-roles">
          {log.roles.map((role) => (
            <Tag key={role}>{role}</Tag>
          ))}
        </span>
      ),
    },
  ];

  return (
    <LogTable<SessionLog>
      label={t('page.session')}
      columns={columns}
      list={list}
      result={logs}
      searchPlaceholder={t('filters.searchUser')}
      filters={<SessionFilters list={list} />}
    />
  );
}

/** The dates, the application, and the tenant (with the tenants below it, on request). */
function SessionFilters({ list }: { list: ListStateHook }) {
  const { t } = useLogsTranslation();
  const [state, setState] = list;
  return (
    <>
      <DateRangeFilter list={list} />
      <TextFilter list={list} name="application" label={t('filters.application')} />
      <TenantSelect
        withGlobal={false}
        className="logs-filter--wide"
        aria-label={t('filters.tenant')}
        placeholder={t('filters.anyTenant')}
        allowClear
        value={state.filters.tenant || undefined}
        // Without a tenant, "its children" means nothing: the flag goes with it.
        onChange={(tenant) => setState({ filters: { ...state.filters, tenant: tenant ?? '', includeHierarchy: tenant ? state.filters.includeHierarchy ?? '' : '' } })}
      />
      <FlagFilter list={list} name="includeHierarchy" label={t('filters.includeHierarchy')} disabled={!state.filters.tenant} />
    </>
  );
}
