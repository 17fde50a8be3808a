import Tabs from 'antd/es/tabs';
import { PageHeader } from '../../shell/PageHeader';
import { useRememberedTab } from '../../shell/use-remembered-tab';
import { useFeedback } from '../directory/components/feedback';
import { AuthenticationLogsTab } from './AuthenticationLogsTab';
import { ExternalApiAccessLogsTab } from './ExternalApiAccessLogsTab';
import { SessionLogsTab } from './SessionLogsTab';
import { SystemLogsTab } from './SystemLogsTab';
import { useLogsTranslation } from './use-logs-translation';
import './logs.css';

/** The Logs page's tabs, in the spec's order. */
export const LOG_TABS = ['authentication', 'system', 'session', 'externalApiAccess'] as const;
export type LogTab = (typeof LOG_TABS)[number];

/** Where the active tab is remembered for the browser tab (the lists' pattern of keys). */
export const LOGS_TAB_KEY = 'IDENTITY-LOGS-TAB';

/** /admin/logs: the four logs, for a role containing Administrator or Manager (the Permissions page's rule). */
export default function LogsPage() {
  return <LogTabs />;
}

function LogTabs() {
  const { t } = useLogsTranslation();
  const feedback = useFeedback();
  const [tab, setTab] = useRememberedTab(LOG_TABS, LOGS_TAB_KEY, 'authentication');
  return (
    <>
      <PageHeader title={t('page.title')} breadcrumbs={[{ title: t('page.title') }]} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as LogTab)}
        destroyOnHidden
        items={[
          { key: 'authentication', label: t('page.authentication'), children: <AuthenticationLogsTab feedback={feedback} /> },
          { key: 'system', label: t('page.system'), children: <SystemLogsTab feedback={feedback} /> },
          { key: 'session', label: t('page.session'), children: <SessionLogsTab /> },
          { key: 'externalApiAccess', label: t('page.externalApiAccess'), children: <ExternalApiAccessLogsTab /> },
        ]}
      />
      {feedback.holder}
    </>
  );
}
