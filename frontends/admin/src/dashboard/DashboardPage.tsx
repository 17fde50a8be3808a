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
import { mayCall, mayOpenPage, type ConsolePage } from '../auth/console-access';
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
  page: ConsolePage;
  icon: ReactNode;
  count: keyof DashboardSummary;
}

interface LinkTile {
  title: TileDescription;
  path: string;
  page: ConsolePage;
  icon: ReactNode;
}

const COUNT_TILES: readonly CountTile[] = [
  { title: 'users', path: '/users', page: 'users', icon: <UserOutlined />, count: 'usersCount' },
  { title: 'groups', path: '/groups', page: 'groups', icon: <TeamOutlined />, count: 'groupsCount' },
  { title: 'applications', path: '/applications', page: 'applications', icon: <AppstoreOutlined />, count: 'appsCount' },
  { title: 'areas', path: '/areas', page: 'areas', icon: <EnvironmentOutlined />, count: 'areasCount' },
  { title: 'tenants', path: '/tenants', page: 'tenants', icon: <ApartmentOutlined />, count: 'tenantsCount' },
];

// God's Identify As tile follows these, when the deployment enables it (IdentifyAsTile).
const LINK_TILES: readonly LinkTile[] = [
  { title: 'permissions', path: '/permissions', page: 'permissions', icon: <UnlockOutlined /> },
  { title: 'pats', path: '/pats', page: 'pats', icon: <KeyOutlined /> },
  { title: 'logs', path: '/logs', page: 'logs', icon: <FileSearchOutlined /> },
  { title: 'twoModeAuth', path: '/twomodeauth', page: 'twomodeauth', icon: <SafetyCertificateOutlined /> },
  { title: 'securityConfig', path: '/securityConfig', page: 'securityConfig', icon: <SafetyOutlined /> },
  { title: 'controlPats', path: '/control-pats', page: 'control-pats', icon: <AuditOutlined /> },
];

/**
 * `/admin`: the welcome, the count tiles, the shortcuts to the other screens and the usage reports,
 * each for the roles the admin API answers its call: a delegated administrator sees the tiles of
 * the pages their roles open, without the counts and reports the API keeps for others.
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation('admin');
  const user = useCurrentUser();
  const counted = mayCall(user, 'dashboard.base');
  const { data, error, isLoading } = useDashboardBaseQuery(undefined, { skip: !counted });
  const numbers = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language);
  const jobs = useJobsViewOpener();

  return (
    <div className="admin-dashboard">
      <PageHeader
        title={t('dashboard.welcome', { name: user.fullName })}
        extra={
          // The background jobs page lets in whoever may ask for its link.
          mayCall(user, 'jobs.dashboardLink') ? (
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
          {COUNT_TILES.filter((tile) => mayOpenPage(user.roles, tile.page)).map((tile) => (
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
          {LINK_TILES.filter((tile) => mayOpenPage(user.roles, tile.page)).map((tile) => (
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
      {mayCall(user, 'dashboard.loginLastHours') ? <UsageReports /> : null}
    </div>
  );
}
