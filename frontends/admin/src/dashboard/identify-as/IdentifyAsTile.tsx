import LoginOutlined from '@ant-design/icons/LoginOutlined';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../auth/use-current-user';
import { useIdentifyAsEnabledQuery } from './identify-as-api';

// The dialog brings the user lookup: fetched when God opens it, not with every dashboard.
const IdentifyAsDialog = lazy(() => import('./IdentifyAsDialog'));

/** Leaves the console for the identity provider's link (a full navigation). */
const goTo = (url: string) => window.location.assign(url);

export interface IdentifyAsTileProps {
  /** Where the browser is sent once the link is issued; a full navigation by default. */
  leave?: (url: string) => void;
}

/**
 * The dashboard's Identify As tile (spec: God, when impersonation is enabled) and its dialog,
 * which picks a user and on confirm sends the browser to the identity provider's link. Nothing
 * shows to anyone else, nor while the answer is unknown.
 */
export function IdentifyAsTile({ leave = goTo }: IdentifyAsTileProps) {
  const { t } = useTranslation('admin');
  const user = useCurrentUser();
  const { data } = useIdentifyAsEnabledQuery(undefined, { skip: !user.isGod });
  const [open, setOpen] = useState(false);
  if (!user.isGod || !data?.enabled) return null;

  return (
    <li>
      <button type="button" className="admin-tile admin-tile--link admin-tile--button" onClick={() => setOpen(true)}>
        <span className="admin-tile__icon" aria-hidden>
          <LoginOutlined />
        </span>
        <span className="admin-tile__title">{t('dashboard.identifyAs.title')}</span>{' '}
        <span className="admin-tile__description">{t('dashboard.identifyAs.description', { minutes: data.maxMinutes })}</span>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <IdentifyAsDialog maxMinutes={data.maxMinutes} onClose={() => setOpen(false)} leave={leave} />
        </Suspense>
      ) : null}
    </li>
  );
}
