import { SYSTEM_LOG_OPERATIONS } from '@gatehouse/contracts';
import { useFormatDateTime } from '@gatehouse/frontend-shared';
import type { ColumnsType } from 'antd/es/table';
import { useCurrentUser } from '../../auth/use-current-user';
import { mayCall } from '../../auth/console-access';
import type { Feedback } from '../directory/components/feedback';
import type { ListStateHook } from '../directory/components/list-state';
import { TenantSelect, UserSelect } from '../directory/components/selects';
import { userColumn } from './acted-by';
import { DateRangeFilter } from './DateRangeFilter';
import { SelectFilter, TextFilter } from './filters';
import { ExportButton, exportQueryOf, logQueryOf, MetadataView, useLogList } from './log-parts';
import { useExportSystemLogsMutation, useSystemLogsQuery, type SystemLog } from './logs-api';
import { LogTable } from './LogTable';
import { useLogsTranslation } from './use-logs-translation';

/** The System Logs tab: the administrative changes, by date range, operation, metadata text and what they concern, exportable. */
export function SystemLogsTab({ feedback }: { feedback: Feedback }) {
  const { t } = useLogsTranslation();
  const formatDateTime = useFormatDateTime();
  const list = useLogList('system');
  const logs = useSystemLogsQuery(logQueryOf(list[0]), { refetchOnMountOrArgChange: true });
  const [exportLogs] = useExportSystemLogsMutation();

  const columns: ColumnsType<SystemLog> = [
    userColumn<SystemLog>(t('columns.userName')),
    { key: 'date', title: t('columns.date'), sorter: true, width: 180, render: (_, log) => formatDateTime(log.date) },
    { key: 'tenantName', dataIndex: 'tenantName', title: t('columns.tenant'), sorter: true },
    { key: 'operation', dataIndex: 'operation', title: t('columns.operation'), sorter: true },
  ];

  return (
    <LogTable<SystemLog>
      label={t('page.system')}
      columns={columns}
      list={list}
      result={logs}
      searchPlaceholder={t('filters.searchUser')}
      filters={<SystemFilters list={list} />}
      toolbar={<ExportButton start={() => exportLogs(exportQueryOf(list[0])).unwrap()} feedback={feedback} />}
      details={(log) => (Object.keys(log.metadata).length ? <MetadataView metadata={log.metadata} /> : null)}
    />
  );
}

/** The dates, the operation, a text in the metadata, and the tenant and user a change concerns. */
function SystemFilters({ list }: { list: ListStateHook }) {
  const { t } = useLogsTranslation();
  const user = useCurrentUser();
  const [state, setState] = list;
  const set = (name: string, value: string | undefined) => setState({ filters: { ...state.filters, [name]: value ?? '' } });
  return (
    <>
      <DateRangeFilter list={list} />
      <SelectFilter
        list={list}
        name="operation"
        label={t('filters.operation')}
        placeholder={t('filters.allOperations')}
        search
        options={SYSTEM_LOG_OPERATIONS.map((operation) => ({ value: operation, label: operation }))}
      />
      <TextFilter list={list} name="intoMetadata" label={t('filters.intoMetadata')} className="logs-filter--wide" />
      <TenantSelect
        withGlobal={false}
        className="logs-filter--wide"
        aria-label={t('filters.metadataTenant')}
        placeholder={t('filters.metadataTenant')}
        allowClear
        value={state.filters.metadataTenantId || undefined}
        onChange={(tenant) => set('metadataTenantId', tenant)}
      />
      {/* The users lookup is the users list's: only those who may read it pick a user here. */}
      {mayCall(user, 'users.list') ? (
        <UserSelect
          className="logs-filter--wide"
          aria-label={t('filters.metadataUser')}
          placeholder={t('filters.metadataUser')}
          allowClear
          value={state.filters.metadataUserId || undefined}
          onChange={(picked) => set('metadataUserId', picked)}
        />
      ) : null}
    </>
  );
}
