import FileExcelOutlined from '@ant-design/icons/FileExcelOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useTranslation } from 'react-i18next';
import { useGenerateAdminReportMutation, type AdminsPerApplication } from '../../api/dashboard';
import { errorMessageOf } from '../../api/errors';
import { ZoomedReport, type ReportQuery, type ReportSpec } from './ReportCard';

/**
 * The zoomed global-administrators-per-application report, with "Generate full admin Report": the
 * full list is built in the background and comes back as a notification with its file.
 */
export function AdminsPerApplicationZoom({ title, spec, query }: { title: string; spec: ReportSpec<AdminsPerApplication>; query: ReportQuery<AdminsPerApplication> }) {
  const { t } = useTranslation(['admin', 'translation']);
  const [generate, state] = useGenerateAdminReportMutation();
  return (
    <>
      {state.isSuccess ? (
        <Alert className="report-zoom__notice" type="success" showIcon title={t('admin:dashboard.reports.adminReport.queuedTitle')} description={t('admin:dashboard.reports.adminReport.queuedText')} />
      ) : null}
      {state.isError ? <Alert className="report-zoom__notice" type="error" showIcon title={errorMessageOf(state.error, t)} /> : null}
      <ZoomedReport
        title={title}
        spec={spec}
        query={query}
        filters={
          <Button icon={<FileExcelOutlined aria-hidden />} loading={state.isLoading} disabled={state.isSuccess} onClick={() => void generate()}>
            {t('admin:dashboard.reports.adminReport.generate')}
          </Button>
        }
      />
    </>
  );
}
