import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import MenuOutlined from '@ant-design/icons/MenuOutlined';
import QuestionCircleOutlined from '@ant-design/icons/QuestionCircleOutlined';
import { LanguageMenu, useMediaQuery } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Company } from '../api/portal-api';
import { fullName, type PortalProfile } from '../auth/profile';
import { NotificationsBell } from '../notifications/NotificationsBell';
import { BusyIndicator } from './BusyIndicator';
import { NARROW_SCREEN_QUERY } from './breakpoints';
import type { ShellLink } from './links';
import { SideMenu } from './SideMenu';
import { UserMenu } from './UserMenu';

export interface TopBarProps {
  /** The signed-in user; undefined shows the Login link. */
  profile: PortalProfile | undefined;
  helpdesk: ShellLink | undefined;
  /** The user's roles: on a narrow screen the portal's menu moves into the hamburger drawer. */
  roles?: readonly string[];
  /** The user's picture, when known. */
  avatarUrl?: string;
  /** The company the user works for now. */
  company?: Company | null;
  onOpenMyApps: () => void;
  onChangePassword: () => void;
  /** "Change company": given only when the user has several companies. */
  onChangeCompany?: () => void;
  onSignIn: () => void;
  onSignOut: () => void;
}

function Logo() {
  const { t } = useTranslation('portal');
  const productName = t('common.productName', { ns: 'translation' });
  return (
    <Link to="/" className="top-bar__logo" aria-label={t('shell.homeLink', { productName })}>
      <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path d="M9 24V13l7-5 7 5v11h-5v-6h-4v6z" fill="#fff" />
      </svg>
      <span className="top-bar__product">{productName}</span>
    </Link>
  );
}

function HelpdeskLink({ link, block = false }: { link: ShellLink; block?: boolean }) {
  const { t } = useTranslation('portal');
  return (
    <Button type="text" block={block} icon={<QuestionCircleOutlined aria-hidden />} href={link.href} target="_blank" rel="noopener noreferrer">
      {t('shell.helpdesk')}
      <span className="visually-hidden"> {t('shell.opensInNewTab')}</span>
    </Button>
  );
}

/**
 * The spec's top bar: logo (home), tagline, language, Helpdesk, My Apps and the user menu; at
 * 768 px or less everything but the logo moves behind a hamburger.
 */
export function TopBar(props: TopBarProps) {
  const { profile, helpdesk, roles = [], avatarUrl, company, onOpenMyApps, onChangePassword, onChangeCompany, onSignIn, onSignOut } = props;
  const { t } = useTranslation('portal');
  const navigate = useNavigate();
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY);
  const [menuOpen, setMenuOpen] = useState(false);

  const closeMenuThen = (action: () => void) => () => {
    setMenuOpen(false);
    action();
  };

  const loginLink = (
    <Button type="primary" onClick={onSignIn}>
      {t('shell.login')}
    </Button>
  );

  return (
    <header className="top-bar">
      <Logo />
      <span className="top-bar__tagline">{t('shell.tagline')}</span>
      <BusyIndicator />
      {narrow ? (
        <>
          <Button
            type="text"
            className="top-bar__hamburger"
            icon={<MenuOutlined aria-hidden />}
            aria-label={t('shell.openMenu')}
            aria-expanded={menuOpen}
            aria-controls="top-bar-menu"
            onClick={() => setMenuOpen(true)}
          />
          {profile && <NotificationsBell />}
          <Drawer
            id="top-bar-menu"
            open={menuOpen}
            onClose={() => setMenuOpen(false)}
            placement="right"
            size={300}
            title={t('shell.menuTitle')}
            closable={{ 'aria-label': t('myApps.close') }}
          >
            <nav className="top-bar__menu" aria-label={t('shell.mainNavigation')}>
              {profile && <p className="top-bar__menu-name">{fullName(profile)}</p>}
              <LanguageMenu label={t('shell.language')} />
              {helpdesk && <HelpdeskLink link={helpdesk} block />}
              {profile ? (
                <>
                  <Button type="text" block icon={<AppstoreOutlined aria-hidden />} onClick={closeMenuThen(onOpenMyApps)}>
                    {t('shell.myApps')}
                  </Button>
                  <Button type="text" block onClick={closeMenuThen(() => void navigate('/profile'))}>
                    {t('shell.yourProfile')}
                  </Button>
                  {onChangeCompany && (
                    <Button type="text" block onClick={closeMenuThen(onChangeCompany)}>
                      {t('shell.changeCompany')}
                    </Button>
                  )}
                  <Button type="text" block onClick={closeMenuThen(onChangePassword)}>
                    {t('shell.changePassword')}
                  </Button>
                  <Button type="text" block danger onClick={closeMenuThen(onSignOut)}>
                    {t('shell.closeSession')}
                  </Button>
                </>
              ) : (
                loginLink
              )}
            </nav>
            {profile && <SideMenu roles={roles} onNavigate={() => setMenuOpen(false)} />}
          </Drawer>
        </>
      ) : (
        <nav className="top-bar__actions" aria-label={t('shell.mainNavigation')}>
          <LanguageMenu label={t('shell.language')} />
          {helpdesk && <HelpdeskLink link={helpdesk} />}
          {profile ? (
            <>
              <NotificationsBell />
              <Button type="text" icon={<AppstoreOutlined aria-hidden />} onClick={onOpenMyApps}>
                {t('shell.myApps')}
              </Button>
              <UserMenu
                profile={profile}
                avatarUrl={avatarUrl}
                company={company}
                onChangePassword={onChangePassword}
                onChangeCompany={onChangeCompany}
                onSignOut={onSignOut}
              />
            </>
          ) : (
            loginLink
          )}
        </nav>
      )}
    </header>
  );
}
