import HeartFilled from '@ant-design/icons/HeartFilled';
import { useMediaQuery } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Drawer from 'antd/es/drawer';
import Skeleton from 'antd/es/skeleton';
import { useTranslation } from 'react-i18next';
import { useHomeInfoQuery, type Application } from '../api/portal-api';
import { AppIcon } from './AppIcon';
import { NARROW_SCREEN_QUERY } from './breakpoints';
import { myAppsView } from './my-apps';

/** The spec's drawer width. */
export const MY_APPS_DRAWER_WIDTH = 650;

export interface MyAppsDrawerProps {
  open: boolean;
  onClose: () => void;
  /** The application the user is in, left out of the list. */
  currentAppId: string | undefined;
}

function AppLink({ app, askUs }: { app: Application; askUs: boolean }) {
  const { t } = useTranslation('portal');
  const href = askUs ? app.publicUrl : app.privateUrl;
  const content = (
    <>
      <AppIcon appId={app.id} size={40} />
      <span className="my-apps__title">{app.title}</span>
      {app.isUserFavorite && !askUs && (
        <HeartFilled className="my-apps__favourite" role="img" aria-label={t('myApps.favourite')} />
      )}
      {askUs && <span className="visually-hidden">{t('shell.opensInNewTab')}</span>}
    </>
  );
  if (!href) return <span className="my-apps__link my-apps__link--disabled">{content}</span>;
  return askUs ? (
    <a className="my-apps__link" href={href} target="_blank" rel="noopener noreferrer">
      {content}
    </a>
  ) : (
    <a className="my-apps__link" href={href}>
      {content}
    </a>
  );
}

/** My Apps: the applications the user may open, and the ones to ask for, on the right side. */
export function MyAppsDrawer({ open, onClose, currentAppId }: MyAppsDrawerProps) {
  const { t } = useTranslation('portal');
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY);
  const { data, isLoading, isError } = useHomeInfoQuery(undefined, { skip: !open });
  const view = data ? myAppsView(data.applications.items, currentAppId) : undefined;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="right"
      size={narrow ? '100%' : MY_APPS_DRAWER_WIDTH}
      title={t('myApps.title')}
      closable={{ 'aria-label': t('myApps.close') }}
      destroyOnHidden
    >
      {isLoading && <Skeleton active avatar paragraph={{ rows: 3 }} />}
      {isError && <Alert type="error" showIcon title={t('myApps.loadError')} />}
      {view && (
        <>
          {view.accessible.length === 0 ? (
            <p className="my-apps__empty">{t('myApps.empty')}</p>
          ) : (
            <ul className="my-apps__grid" data-columns={view.columns} aria-label={t('myApps.title')}>
              {view.accessible.map((app) => (
                <li key={app.id}>
                  <AppLink app={app} askUs={false} />
                </li>
              ))}
            </ul>
          )}
          {view.askUs.length > 0 && (
            <section className="my-apps__ask-us" aria-labelledby="my-apps-ask-us">
              <h3 id="my-apps-ask-us">{t('myApps.askUs')}</h3>
              <ul className="my-apps__grid" data-columns={view.askUs.length > 4 ? 2 : 1}>
                {view.askUs.map((app) => (
                  <li key={app.id}>
                    <AppLink app={app} askUs />
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </Drawer>
  );
}
