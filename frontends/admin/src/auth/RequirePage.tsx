import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { pageNameKey } from '../shell/menu';
import { PageHeader } from '../shell/PageHeader';
import { isConsolePage, mayOpenPage, type ConsolePage } from './console-access';
import { useCurrentUser } from './use-current-user';

/** Says that the user's roles do not open `page`, with the way back to the dashboard. */
export function NotOpenPage({ page }: { page: ConsolePage }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const screen = t(pageNameKey(page));
  return (
    <>
      <PageHeader title={screen} breadcrumbs={[{ title: screen }]} />
      <Result
        status="403"
        title={t('notAvailable.notOpenTitle')}
        subTitle={t('notAvailable.notOpenText', { screen })}
        extra={
          <Button type="primary" onClick={() => void navigate('/')}>
            {t('notAvailable.backToDashboard')}
          </Button>
        }
      />
    </>
  );
}

/**
 * The console's pages open for the roles the admin API answers each page's call (the same table the
 * server enforces); anybody else who follows a link or bookmark there is told so, with the way
 * back. The API checks every call again: this only spares the user a page that would fail.
 */
export function RequirePage() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const segment = pathname.split('/')[1] ?? '';
  if (isConsolePage(segment) && !mayOpenPage(user.roles, segment)) return <NotOpenPage page={segment} />;
  return <Outlet />;
}
