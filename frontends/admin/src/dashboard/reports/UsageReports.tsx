import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAdminsPerApplicationQuery,
  useAdminsPerAreaQuery,
  useConnectedPerApplicationQuery,
  useLoginsPerHourQuery,
  type AdminsPerApplication,
  type AdminsPerArea,
  type ConnectedPerApplication,
  type LoginsPerHour,
} from '../../api/dashboard';
import { AdminsPerApplicationZoom } from './AdminsPerApplicationZoom';
import { ReportCard, type ReportSpec } from './ReportCard';
import './reports.css';

// The filters' pickers come with the zoomed view, not with the dashboard.
const AdminsPerAreaZoom = lazy(() => import('./AdminsPerAreaZoom').then((module) => ({ default: module.AdminsPerAreaZoom })));

/** An hour's first instant as the reader's clock shows it: "09:00". */
function hourLabel(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}

/** The words and shape of each report, in the reader's language. */
function useReportSpecs() {
  const { t, i18n } = useTranslation('admin');
  const language = i18n.resolvedLanguage ?? i18n.language;
  const logins: ReportSpec<LoginsPerHour> = {
    kind: 'line',
    toPoints: (rows) => rows.map((row) => ({ label: hourLabel(row.hour, language), count: row.count })),
    labelName: t('dashboard.reports.columns.hour'),
    valueName: t('dashboard.reports.logins.value'),
    emptyText: t('dashboard.reports.logins.empty'),
  };
  const adminsPerApplication: ReportSpec<AdminsPerApplication> = {
    kind: 'bar',
    toPoints: (rows) => rows.map((row) => ({ label: row.displayName, count: row.count })),
    labelName: t('dashboard.reports.columns.application'),
    valueName: t('dashboard.reports.adminsPerApplication.value'),
    emptyText: t('dashboard.reports.adminsPerApplication.empty'),
  };
  const adminsPerArea: ReportSpec<AdminsPerArea> = {
    kind: 'bar',
    toPoints: (rows) => rows.map((row) => ({ label: row.areaName, count: row.count })),
    labelName: t('dashboard.reports.columns.area'),
    valueName: t('dashboard.reports.adminsPerArea.value'),
    emptyText: t('dashboard.reports.adminsPerArea.empty'),
  };
  const connected: ReportSpec<ConnectedPerApplication> = {
    kind: 'bar',
    toPoints: (rows) => rows.map((row) => ({ label: row.displayName, count: row.count })),
    labelName: t('dashboard.reports.columns.application'),
    valueName: t('dashboard.reports.connected.value'),
    emptyText: t('dashboard.reports.connected.empty'),
  };
  return { logins, adminsPerApplication, adminsPerArea, connected };
}

/** The dashboard's usage report widgets (spec 2, Dashboard). */
export function UsageReports() {
  const { t } = useTranslation('admin');
  const specs = useReportSpecs();
  const logins = useLoginsPerHourQuery();
  const adminsPerApplication = useAdminsPerApplicationQuery();
  const adminsPerArea = useAdminsPerAreaQuery({});
  const connected = useConnectedPerApplicationQuery();

  return (
    <section aria-labelledby="dashboard-reports">
      <h2 id="dashboard-reports" className="visually-hidden">
        {t('dashboard.reports.title')}
      </h2>
      <div className="reports">
        <ReportCard title={t('dashboard.reports.logins.title')} hint={t('dashboard.reports.logins.hint')} spec={specs.logins} query={logins} />
        <ReportCard title={t('dashboard.reports.connected.title')} hint={t('dashboard.reports.connected.hint')} spec={specs.connected} query={connected} />
        <ReportCard
          title={t('dashboard.reports.adminsPerApplication.title')}
          spec={specs.adminsPerApplication}
          query={adminsPerApplication}
          zoomed={() => <AdminsPerApplicationZoom title={t('dashboard.reports.adminsPerApplication.title')} spec={specs.adminsPerApplication} query={adminsPerApplication} />}
        />
        <ReportCard
          title={t('dashboard.reports.adminsPerArea.title')}
          spec={specs.adminsPerArea}
          query={adminsPerArea}
          zoomed={() => <AdminsPerAreaZoom title={t('dashboard.reports.adminsPerArea.title')} spec={specs.adminsPerArea} />}
        />
      </div>
    </section>
  );
}
