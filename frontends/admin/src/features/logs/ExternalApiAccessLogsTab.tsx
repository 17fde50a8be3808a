import { EXTERNAL_API_ENTRIES } from '@gatehouse/contracts';
import { useFormatDateTime } from '@gatehouse/frontend-shared';
import type { ColumnsType } from 'antd/es/table';
import { userColumn } from './acted-by';
import { DateRangeFilter } from './DateRangeFilter';
import { SelectFilter, TextFilter } from './filters';
import { logQueryOf, MetadataView, useLogList } from './log-parts';
import { useExternalApiAccessLogsQuery, type ExternalApiAccessLog } from './logs-api';
import { LogTable } from './LogTable';
import { useLogsTranslation } from './use-logs-translation';

/** The External Api Access Log tab: the calls of the external API, by date range, address, event and user. */
export function ExternalApiAccessLogsTab() {
  const { t } = useLogsTranslation();
  const formatDateTime = useFormatDateTime();
  const list = useLogList('externalApiAccess');
  const logs = useExternalApiAccessLogsQuery(logQueryOf(list[0]), { refetchOnMountOrArgChange: true });

  const columns: ColumnsType<ExternalApiAccessLog> = [
    userColumn<ExternalApiAccessLog>(t('columns.userName')),
    { key: 'date', title: t('columns.date'), sorter: true, width: 180, render: (_, log) => formatDateTime(log.date) },
    { key: 'apiEntry', dataIndex: 'apiEntry', title: t('columns.apiEntry'), sorter: true },
    { key: 'ip', dataIndex: 'ip', title: t('columns.ip'), sorter: true },
  ];

  return (
    <LogTable<ExternalApiAccessLog>
      label={t('page.externalApiAccess')}
      columns={columns}
      list={list}
      result={logs}
      searchPlaceholder={t('filters.searchUser')}
      filters={
        <>
          <DateRangeFilter list={list} />
          <SelectFilter
            list={list}
            name="apiEntry"
            label={t('filters.apiEntry')}
            placeholder={t('filters.allEvents')}
            options={EXTERNAL_API_ENTRIES.map((entry) => ({ value: entry, label: entry }))}
          />
          <TextFilter list={list} name="ip" label={t('filters.ip')} />
        </>
      }
      details={(log) => (Object.keys(log.metadata).length ? <MetadataView metadata={log.metadata} /> : null)}
    />
  );
}
