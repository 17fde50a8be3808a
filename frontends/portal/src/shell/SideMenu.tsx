import MenuFoldOutlined from '@ant-design/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/MenuUnfoldOutlined';
import Button from 'antd/es/button';
import Menu from 'antd/es/menu';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { menuEntries, selectedMenuKey } from './menu';

const SIDE_MENU_ID = 'portal-side-menu';

export interface SideMenuProps {
  /** The user's roles: they decide which entries show. */
  roles: readonly string[];
  /** Folded to its icons (the collapsible side menu); the hamburger drawer shows it unfolded. */
  collapsed?: boolean;
  /** Given, the menu has a button folding and unfolding it. */
  onToggle?: () => void;
  /** Called once an entry is picked (the drawer closes). */
  onNavigate?: () => void;
}

/**
 * The spec's menu: Home, Profile, Exercise rights, My Clients, Service Manager and Disclaimers, each
 * shown to the roles it requires; an entry keeps the current query string.
 */
export function SideMenu({ roles, collapsed = false, onToggle, onNavigate }: SideMenuProps) {
  const { t } = useTranslation('portal');
  const location = useLocation();
  const selected = selectedMenuKey(location.pathname);

  const items = menuEntries(roles).map((entry) => {
    return {
      key: entry.key,
      icon: entry.icon,
      label: (
        <span className="side-menu__label">
          <Link to={{ pathname: entry.path, search: location.search }}>{t(`menu.${entry.key}`)}</Link>
        </span>
      ),
    };
  });

  return (
    <nav id={SIDE_MENU_ID} className={collapsed ? 'side-menu side-menu--collapsed' : 'side-menu'} aria-label={t('shell.portalMenu')}>
      <div className="side-menu__inner">
        {onToggle && (
          <Button
            type="text"
            className="side-menu__toggle"
            icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />}
            aria-label={collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
            aria-expanded={!collapsed}
            aria-controls={SIDE_MENU_ID}
            onClick={onToggle}
          />
        )}
        <Menu mode="inline" inlineCollapsed={collapsed} selectedKeys={selected ? [selected] : []} items={items} onClick={() => onNavigate?.()} />
      </div>
    </nav>
  );
}
