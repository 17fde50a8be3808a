import LogoutOutlined from '@ant-design/icons/LogoutOutlined';
import MenuFoldOutlined from '@ant-design/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/MenuUnfoldOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { LanguageMenu, SkipLink, useMediaQuery, type Language } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Layout from 'antd/es/layout';
import Menu from 'antd/es/menu';
import Tag from 'antd/es/tag';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { useCurrentUser } from '../auth/use-current-user';
import { IDENTITY_URL } from '../routes';
import { menuEntries, selectedMenuKey } from './menu';
import { Splash } from './Splash';
import './shell.css';

// The notifications button, flyout and live connection: a chunk of their own, after the page.
const NotificationsCenter = lazy(() => import('../features/notifications/NotificationsCenter'));

const SIDER_ID = 'admin-side-menu';

/** Below this width the side menu folds away behind the header's menu button. */
const NARROW_SCREEN_QUERY = '(max-width: 991px)';

/**
 * The languages the console's selector offers (spec: English and French). The phrases exist in
 * all seven: a user whose browser or stored preference asks for another still gets it.
 */
const SELECTABLE_LANGUAGES: readonly Language[] = ['en', 'fr'];

/** The frame of every console page: side menu by role, header (user, language, sign-out), content. */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  const auth = useAuth();
  const user = useCurrentUser();
  const location = useLocation();
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY);
  const [collapsed, setCollapsed] = useState(narrow);
  const [foldedFor, setFoldedFor] = useState(narrow);

  // Folds when the screen becomes narrow, unfolds when it becomes wide again.
  if (foldedFor !== narrow) {
    setFoldedFor(narrow);
    setCollapsed(narrow);
  }

  const selected = selectedMenuKey(location.pathname);
  const items = menuEntries(user).map((entry) => {
    const tagId = `admin-menu-${entry.key}-not-yet`;
    return {
      key: entry.key,
      icon: entry.icon,
      label: (
        <span className="admin-shell__menu-label">
          <Link to={entry.path} aria-describedby={entry.notYet ? tagId : undefined}>
            {t(`menu.${entry.key}`)}
          </Link>
          {entry.notYet ? (
            <Tag id={tagId} className="admin-shell__not-yet" variant="filled">
              {t('shell.notYet')}
            </Tag>
          ) : null}
        </span>
      ),
    };
  });

  // Should the provider be out of reach, the user still leaves with the local session gone.
  const signOut = () => void auth.signOut().catch(() => window.location.assign(IDENTITY_URL));

  return (
    <Layout className="admin-shell">
      <SkipLink>{t('shell.skipToContent')}</SkipLink>
      <Layout.Sider
        id={SIDER_ID}
        className="admin-shell__sider"
        theme="light"
        width={264}
        collapsible
        collapsed={collapsed}
        collapsedWidth={narrow ? 0 : 64}
        trigger={null}
      >
        <Link to="/" className="admin-shell__brand">
          {collapsed ? 'G' : t('shell.title')}
        </Link>
        <nav aria-label={t('shell.mainNavigation')}>
          <Menu
            mode="inline"
            selectedKeys={selected ? [selected] : []}
            items={items}
            // On a narrow screen the open menu lies over the page: it folds once a page is picked.
            onClick={() => narrow && setCollapsed(true)}
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header className="admin-shell__header">
          <Button
            type="text"
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            aria-label={collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
            aria-expanded={!collapsed}
            aria-controls={SIDER_ID}
            onClick={() => setCollapsed((value) => !value)}
          />
          <span className="admin-shell__spacer" />
          <LanguageMenu label={t('shell.language')} languages={SELECTABLE_LANGUAGES} compact={narrow} />
          <span className="admin-shell__user">
            <UserOutlined aria-hidden />
            <span className={narrow ? 'visually-hidden' : undefined}>{user.fullName}</span>
          </span>
          <Button type="text" icon={<LogoutOutlined aria-hidden />} onClick={signOut} aria-label={narrow ? t('shell.signOut') : undefined}>
            {!narrow && t('shell.signOut')}
          </Button>
        </Layout.Header>
        <Layout.Content id="content" className="admin-shell__content" tabIndex={-1}>
          <Suspense fallback={<Splash label={t('common.loading')} />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
        <Suspense fallback={null}>
          <NotificationsCenter />
        </Suspense>
      </Layout>
    </Layout>
  );
}
