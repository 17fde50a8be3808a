import type { HomeApplication } from '@gatehouse/contracts';
import { apiErrorMessage } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Skeleton from 'antd/es/skeleton';
import Spin from 'antd/es/spin';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useHomeInfoQuery } from '../api/portal-api';
import { useProfile } from '../auth/auth-context';
import { fullName } from '../auth/profile';
import { AppIcon } from '../shell/AppIcon';
import { leavePortal } from '../shell/navigation';
import { HOME_REDIRECT_DELAY_MS, decideHome } from './home-rules';
import './home.css';

/** Placeholders while homeInfo loads: as many boxes as a usual first row, each a tile's size. */
const SKELETON_TILES = 4;

function Tile({ app, askUs }: { app: HomeApplication; askUs: boolean }) {
  const { t } = useTranslation('portal');
  const href = askUs ? app.publicUrl : app.privateUrl;
  const body = (
    <>
      <AppIcon appId={app.id} size={56} />
      <h3 className="home-tile__title">{app.title}</h3>
      {app.description && <p className="home-tile__description">{app.description}</p>}
      {app.prerelease && <span className="home-tile__badge">{t('home.prerelease')}</span>}
      {askUs && <span className="visually-hidden"> {t('shell.opensInNewTab')}</span>}
    </>
  );
  return (
    <li>
      {!href ? (
        <div className="home-tile home-tile--disabled">{body}</div>
      ) : askUs ? (
        <a className="home-tile home-tile--ask" href={href} target="_blank" rel="noopener noreferrer">
          {body}
        </a>
      ) : (
        <a className="home-tile" href={href}>
          {body}
        </a>
      )}
    </li>
  );
}

function SkeletonTiles() {
  return (
    <ul className="home-tiles" aria-hidden="true">
      {Array.from({ length: SKELETON_TILES }, (_, index) => (
        <li key={index}>
          <div className="home-tile home-tile--skeleton">
            <Skeleton.Avatar active shape="square" size={56} />
            <Skeleton active title={{ width: '70%' }} paragraph={{ rows: 2, width: ['100%', '60%'] }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * The home launcher (spec §2 Home, §4 Home load): 'Wait while redirect...' while homeInfo loads
 * and for one second after, then a redirect (client portal, or the only application) or the tiles.
 */
export default function HomePage() {
  const { t } = useTranslation('portal');
  const { t: tShared } = useTranslation();
  const profile = useProfile();
  const [searchParams] = useSearchParams();
  const showPrerelease = searchParams.has('prerelease');
  const { data, error } = useHomeInfoQuery();
  const [settled, setSettled] = useState(false);

  const decision = useMemo(
    () => (data ? decideHome(data, { area: profile?.area, showPrerelease }) : undefined),
    [data, profile?.area, showPrerelease],
  );

  useEffect(() => {
    document.title = tShared('common.productName');
  }, [tShared]);

  useEffect(() => {
    if (!decision) return;
    const timer = setTimeout(() => {
      if (decision.kind === 'redirect') leavePortal(decision.url);
      else setSettled(true);
    }, HOME_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [decision]);

  const waiting = !error && !(settled && decision?.kind === 'tiles');

  return (
    <div className="home">
      <h1 className="home__welcome">{t('home.welcome', { name: fullName(profile) })}</h1>
      {error ? (
        <Alert
          type="error"
          showIcon
          title={t('home.loadErrorTitle')}
          description={apiErrorMessage('status' in error ? error.status : undefined, 'data' in error ? error.data : undefined, tShared)}
        />
      ) : waiting ? (
        <div className="home__waiting" aria-busy="true">
          <SkeletonTiles />
          <div className="home__overlay" role="status">
            <Spin size="large" />
            <p>{t('home.redirecting')}</p>
          </div>
        </div>
      ) : (
        decision?.kind === 'tiles' && (
          <>
            <section aria-labelledby="home-applications">
              <h2 id="home-applications" className="visually-hidden">
                {t('home.applications')}
              </h2>
              {decision.accessible.length ? (
                <ul className="home-tiles">
                  {decision.accessible.map((app) => (
                    <Tile key={app.id} app={app} askUs={false} />
                  ))}
                </ul>
              ) : (
                <Alert type="info" showIcon title={t('home.empty')} />
              )}
            </section>
            {decision.askUs.length > 0 && (
              <section aria-labelledby="home-ask-us" className="home__ask-us">
                <h2 id="home-ask-us">{t('home.askUs')}</h2>
                <ul className="home-tiles">
                  {decision.askUs.map((app) => (
                    <Tile key={app.id} app={app} askUs />
                  ))}
                </ul>
              </section>
            )}
          </>
        )
      )}
    </div>
  );
}
