import { SkipLink } from '@gatehouse/frontend-shared';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useAuth, useAuthUser, usePortalConfig } from '../auth/auth-context';
import { profileOf } from '../auth/profile';
import { RequireAuth } from '../auth/RequireAuth';
import { resolveLinks } from './links';
import { MaintenanceModal } from './MaintenanceModal';
import { MyAppsDrawer } from './MyAppsDrawer';
import { leavePortal } from './navigation';
import { PageLoader } from './PageLoader';
import { SessionWatch } from './SessionWatch';
import { ShellFooter } from './ShellFooter';
import { TopBar } from './TopBar';
import { useChangePassword } from './use-change-password';
import './shell.css';

/** The frame of every signed-in page: top bar, content, footer, and the session's dialogs. */
export function ShellLayout() {
  const { t } = useTranslation('portal');
  const auth = useAuth();
  const config = usePortalConfig();
  const user = useAuthUser();
  const profile = profileOf(user);
  const location = useLocation();
  const links = useMemo(() => resolveLinks(config), [config]);
  const [myAppsOpen, setMyAppsOpen] = useState(false);
  const { changePassword, dialogs } = useChangePassword();

  const signIn = () => void auth.signIn(`${location.pathname}${location.search}`);
  // Should the provider be out of reach, the user still leaves with the local session gone.
  const signOut = () => void auth.signOut().catch(() => leavePortal('/'));

  return (
    <div className="shell">
      <SkipLink>{t('shell.skipToContent')}</SkipLink>
      <TopBar
        profile={profile}
        helpdesk={links.helpdesk}
        onOpenMyApps={() => setMyAppsOpen(true)}
        onChangePassword={() => void changePassword()}
        onSignIn={signIn}
        onSignOut={signOut}
      />
      <main id="content" className="shell-content" tabIndex={-1}>
        <RequireAuth>
          <Suspense fallback={<PageLoader label={t('shell.busy')} />}>
            <Outlet />
          </Suspense>
        </RequireAuth>
      </main>
      <ShellFooter links={links} />
      <MyAppsDrawer open={myAppsOpen} onClose={() => setMyAppsOpen(false)} currentAppId={config.clientId} />
      {user && <SessionWatch expiresAt={auth.sessionExpiresAt()} onSignOut={signOut} />}
      {user && <MaintenanceModal appName={config.clientId} />}
      {dialogs}
    </div>
  );
}
