import { AUTHENTICATION_PROVIDERS, AUTHENTICATION_RESULTS } from '@gatehouse/contracts';
import { useFormatDateTime } from '@gatehouse/frontend-shared';
import Descriptions from 'antd/es/descriptions';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { Feedback } from '../directory/components/feedback';
import { userColumn } from './acted-by';
import { DateRangeFilter } from './DateRangeFilter';
import { SelectFilter } from './filters';
import { ExportButton, exportQueryOf, logQueryOf, useLogList } from './log-parts';
import { useAuthenticationLogsQuery, useExportAuthenticationLogsMutation, type AuthenticationLog } from './logs-api';
import { LogTable } from './LogTable';
import { useLogsTranslation } from './use-logs-translation';

const RESULT_COLOURS: Record<AuthenticationLog['result'], string> = {
  Success: 'green',
  Failure: 'red',
  UserLocked: 'orange',
  Unlocked: 'blue',
  FullUserLocked: 'volcano',
};

/** The Authentication Logs tab: every sign-in attempt, by date range, user, result and provider, exportable. */
export function AuthenticationLogsTab({ feedback }: { feedback: Feedback }) {
  const { t } = useLogsTranslation();
  const formatDateTime = useFormatDateTime();
  const list = useLogList('authentication');
  const logs = useAuthenticationLogsQuery(logQueryOf(list[0]), { refetchOnMountOrArgChange: true });
  const [exportLogs] = useExportAuthenticationLogsMutation();

  const columns: ColumnsType<AuthenticationLog> = [
    userColumn<AuthenticationLog>(t('columns.userName')),
    { key: 'date', title: t('columns.date'), sorter: true, width: 180, render: (_, log) => formatDateTime(log.date) },
    {
      key: 'result',
      title: t('columns.result'),
      sorter: true,
      render: (_, log) => <Tag color={RESULT_COLOURS[log.result]}>{t(`results.${log.result}`)}</Tag>,
    },
    { key: 'authenticationProvider', dataIndex: 'authenticationProvider', title: t('columns.provider'), sorter: true },
    { key: 'applicationName', dataIndex: 'applicationName', title: t('columns.application'), sorter: true },
    { key: 'ip', dataIndex: 'ip', title: t('columns.ip'), sorter: true },
    { key: 'reason', dataIndex: 'reason', title: t('columns.reason') },
  ];

  return (
    <LogTable<AuthenticationLog>
      label={t('page.authentication')}
      columns={columns}
      list={list}
      result={logs}
      searchPlaceholder={t('filters.searchUser')}
      filters={
        <>
          <DateRangeFilter list={list} />
          <SelectFilter
            list={list}
            name="result"
            label={t('filters.result')}
            placeholder={t('filters.allResults')}
            options={AUTHENTICATION_RESULTS.map((result) => ({ value: result, label: t(`results.${result}`) }))}
          />
          <SelectFilter
            list={list}
            name="provider"
            label={t('filters.provider')}
            placeholder={t('filters.allProviders')}
            options={AUTHENTICATION_PROVIDERS.map((provider) => ({ value: provider, label: provider }))}
          />
        </>
      }
      toolbar={<ExportButton start={() => exportLogs(exportQueryOf(list[0])).unwrap()} feedback={feedback} />}
      details={(log) =>
        log.reason || log.returnUrl || log.userAgent ? (
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'reason', label: t('details.reason'), children: log.reason },
              { key: 'returnUrl', label: t('details.returnUrl'), children: log.returnUrl },
              { key: 'userAgent', label: t('details.userAgent'), children: log.userAgent },
            ].filter((item) => item.children)}
          />
        ) : null
      }
    />
  );
}
