import { productPath, SkipLink, useMediaQuery } from '@gatehouse/frontend-shared';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useMyProfileQuery, type MyProfile } from '../api/portal-api';
import { useAuth, useAuthUser, usePortalConfig } from '../auth/auth-context';
import { profileOf, type PortalProfile } from '../auth/profile';
import { RequireAuth } from '../auth/RequireAuth';
import { CompanySelectDialog } from '../profile/companies/CompanySelectDialog';
import { storeCompanyPreference } from '../profile/companies/company-preference';
import { NARROW_SCREEN_QUERY } from './breakpoints';
import { resolveLinks } from './links';
import { IdentifyAsBanner } from './identify-as/IdentifyAsBanner';
import { MaintenanceModal } from './MaintenanceModal';
import { MyAppsDrawer } from './MyAppsDrawer';
import { leavePortal } from './navigation';
import { PageLoader } from './PageLoader';
import { SessionWatch } from './SessionWatch';
import { ShellFooter } from './ShellFooter';
import { SideMenu } from './SideMenu';
import { TopBar } from './TopBar';
import { useChangePassword } from './use-change-password';
import './shell.css';

/**
 * The ID token's claims, with the names the user saved since it was issued: the stored profile is
 * what the top bar shows.
 */
function withSavedNames(profile: PortalProfile | undefined, me: MyProfile | undefined): PortalProfile | undefined {
  if (!profile || !me) return profile;
  return { ...profile, given_name: me.firstName ?? profile.given_name, family_name: me.lastName ?? profile.family_name };
}

/** The roles that decide the menu: the token's, and the identity roles the profile call answers. */
export function rolesOf(profile: PortalProfile | undefined, me: MyProfile | undefined): string[] {
  return [...new Set([...(profile?.roles ?? []), ...(me?.roles ?? [])])];
}

/** The frame of every signed-in page: top bar, menu, content, footer, and the session's dialogs. */
export function ShellLayout() {
  const { t } = useTranslation('portal');
  const auth = useAuth();
  const config = usePortalConfig();
  const user = useAuthUser();
  const me = useMyProfileQuery(undefined, { skip: !user }).data;
  const profile = withSavedNames(profileOf(user), me);
  const roles = rolesOf(profile, me);
  const location = useLocation();
  const links = useMemo(() => resolveLinks(config), [config]);
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY);
  const [myAppsOpen, setMyAppsOpen] = useState(false);
  const [menuCollapsed, setMenuCollapsed] = useState(false);
  const [companiesOpen, setCompaniesOpen] = useState(false);
  const { changePassword, dialogs } = useChangePassword();
  const currentCompany = me?.currentCompany;

  // The server keeps the choice; the spec's local `currentCompany` preference follows it.
  useEffect(() => {
    if (currentCompany !== undefined) storeCompanyPreference(currentCompany);
  }, [currentCompany]);

  const signIn = () => void auth.signIn(`${location.pathname}${location.search}`);
  // Should the provider be out of reach, the user still leaves with the local session gone.
  const signOut = () => void auth.signOut().catch(() => leavePortal('/'));

  return (
    <div className="shell">
      <SkipLink>{t('shell.skipToContent')}</SkipLink>
      {profile?.act && <IdentifyAsBanner profile={profile} />}
      <TopBar
        profile={profile}
        helpdesk={links.helpdesk}
        roles={roles}
        avatarUrl={me?.avatarUrl && productPath(me.avatarUrl)}
        company={currentCompany}
        onOpenMyApps={() => setMyAppsOpen(true)}
        onChangePassword={changePassword}
        // "Change company" is offered only to a user with several companies.
        onChangeCompany={me && me.companyCount > 1 ? () => setCompaniesOpen(true) : undefined}
        onSignIn={signIn}
        onSignOut={signOut}
      />
      <div className="shell-body">
        {profile && !narrow && <SideMenu roles={roles} collapsed={menuCollapsed} onToggle={() => setMenuCollapsed((value) => !value)} />}
        <main id="content" className="shell-content" tabIndex={-1}>
          <RequireAuth>
            <Suspense fallback={<PageLoader label={t('shell.busy')} />}>
              <Outlet />
            </Suspense>
          </RequireAuth>
        </main>
      </div>
      <ShellFooter links={links} />
      <MyAppsDrawer open={myAppsOpen} onClose={() => setMyAppsOpen(false)} currentAppId={config.clientId} />
      {user && <SessionWatch expiresAt={auth.sessionExpiresAt()} onSignOut={signOut} />}
      {user && <MaintenanceModal appName={config.clientId} />}
      {me && <CompanySelectDialog open={companiesOpen} current={currentCompany} onClose={() => setCompaniesOpen(false)} />}
      {dialogs}
    </div>
  );
}
