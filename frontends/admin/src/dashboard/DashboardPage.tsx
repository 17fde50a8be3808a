import ApartmentOutlined from '@ant-design/icons/ApartmentOutlined';
import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import AuditOutlined from '@ant-design/icons/AuditOutlined';
import EnvironmentOutlined from '@ant-design/icons/EnvironmentOutlined';
import FileSearchOutlined from '@ant-design/icons/FileSearchOutlined';
import KeyOutlined from '@ant-design/icons/KeyOutlined';
import SafetyCertificateOutlined from '@ant-design/icons/SafetyCertificateOutlined';
import SafetyOutlined from '@ant-design/icons/SafetyOutlined';
import TeamOutlined from '@ant-design/icons/TeamOutlined';
import UnlockOutlined from '@ant-design/icons/UnlockOutlined';
import ScheduleOutlined from '@ant-design/icons/ScheduleOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import type { DashboardSummary } from '@gatehouse/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDashboardBaseQuery } from '../api/dashboard';
import { useCurrentUser } from '../auth/use-current-user';
import type { AdminPhrases } from '../i18n/en';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import { PageHeader } from '../shell/PageHeader';
import { IdentifyAsTile } from './identify-as/IdentifyAsTile';
import { UsageReports } from './reports/UsageReports';
import { useJobsViewOpener } from './use-jobs-view';
import './dashboard.css';

type MenuTitle = keyof AdminPhrases['menu'];
type TileDescription = keyof AdminPhrases['dashboard']['tileDescriptions'];

interface CountTile {
  title: MenuTitle;
  path: string;
  icon: ReactNode;
  count: keyof DashboardSummary;
}

interface LinkTile {
  title: TileDescription;
  path: string;
  icon: ReactNode;
  godOnly?: boolean;
}

const COUNT_TILES: readonly CountTile[] = [
  { title: 'users', path: '/users', icon: <UserOutlined />, count: 'usersCount' },
  { title: 'groups', path: '/groups', icon: <TeamOutlined />, count: 'groupsCount' },
  { title: 'applications', path: '/applications', icon: <AppstoreOutlined />, count: 'appsCount' },
  { title: 'areas', path: '/areas', icon: <EnvironmentOutlined />, count: 'areasCount' },
  { title: 'tenants', path: '/tenants', icon: <ApartmentOutlined />, count: 'tenantsCount' },
];

// God's Identify As tile follows these, when the deployment enables it (IdentifyAsTile).
const LINK_TILES: readonly LinkTile[] = [
  { title: 'permissions', path: '/permissions', icon: <UnlockOutlined /> },
  { title: 'pats', path: '/pats', icon: <KeyOutlined /> },
  { title: 'logs', path: '/logs', icon: <FileSearchOutlined /> },
  { title: 'twoModeAuth', path: '/twomodeauth', icon: <SafetyCertificateOutlined /> },
  { title: 'securityConfig', path: '/securityConfig', icon: <SafetyOutlined />, godOnly: true },
  { title: 'controlPats', path: '/control-pats', icon: <AuditOutlined />, godOnly: true },
];

/** `/admin`: the welcome, the count tiles, the shortcuts to the other screens and the usage reports. */
export function DashboardPage() {
  const { t, i18n } = useTranslation('admin');
  const user = useCurrentUser();
  const { data, error, isLoading } = useDashboardBaseQuery();
  const numbers = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language);
  const jobs = useJobsViewOpener();

  return (
    <div className="admin-dashboard">
      <PageHeader
        title={t('dashboard.welcome', { name: user.fullName })}
        extra={
          // The background jobs page lets in Administrator and God only.
          user.isAdministrator ? (
            <Button icon={<ScheduleOutlined aria-hidden />} loading={jobs.isLoading} onClick={jobs.open}>
              {t('dashboard.jobs.open')}
            </Button>
          ) : undefined
        }
      />
      {jobs.problem ? <Alert type="error" showIcon title={jobs.problem} className="admin-dashboard__error" /> : null}
      <ApiErrorAlert error={error} className="admin-dashboard__error" />
      <section aria-labelledby="dashboard-counts" aria-busy={isLoading}>
        <h2 id="dashboard-counts" className="visually-hidden">
          {t('dashboard.counts')}
        </h2>
        <ul className="admin-tiles">
          {COUNT_TILES.map((tile) => (
            <li key={tile.title}>
              <Link to={tile.path} className="admin-tile">
                <span className="admin-tile__icon" aria-hidden>
                  {tile.icon}
                </span>
                <span className="admin-tile__title">{t(`menu.${tile.title}`)}</span>{' '}
                {isLoading ? (
                  <Skeleton.Button active size="small" className="admin-tile__skeleton" />
                ) : data ? (
                  <span className="admin-tile__count" data-testid={`count-${tile.title}`}>
                    {numbers.format(data[tile.count])}
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="dashboard-shortcuts">
        <h2 id="dashboard-shortcuts" className="visually-hidden">
          {t('dashboard.shortcuts')}
        </h2>
        <ul className="admin-tiles">
          {LINK_TILES.filter((tile) => !tile.godOnly || user.isGod).map((tile) => (
            <li key={tile.title}>
              <Link to={tile.path} className="admin-tile admin-tile--link">
                <span className="admin-tile__icon" aria-hidden>
                  {tile.icon}
                </span>
                <span className="admin-tile__title">{t(`menu.${tile.title}`)}</span>{' '}
                <span className="admin-tile__description">{t(`dashboard.tileDescriptions.${tile.title}`)}</span>
              </Link>
            </li>
          ))}
          <IdentifyAsTile />
        </ul>
      </section>
      <UsageReports />
    </div>
  );
}
