import ArrowLeftOutlined from '@ant-design/icons/ArrowLeftOutlined';
import HomeOutlined from '@ant-design/icons/HomeOutlined';
import Breadcrumb from 'antd/es/breadcrumb';
import Button from 'antd/es/button';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import './shell.css';

/** One step of the breadcrumb trail; the last one usually has no link. */
export interface Crumb {
  title: string;
  /** A route inside the console ('/users', '/groups/42'), relative to /admin. */
  to?: string;
}

/**
 * What a list puts in a link's navigation state so the page it opens knows where the user came
 * from (its back arrow leads there): `<Link to={…} state={breadcrumbState([...])}>`.
 */
export interface BreadcrumbState {
  breadcrumbs: Crumb[];
}

export function breadcrumbState(breadcrumbs: Crumb[]): BreadcrumbState {
  return { breadcrumbs };
}

function isCrumb(value: unknown): value is Crumb {
  if (!value || typeof value !== 'object') return false;
  const { title, to } = value as Record<string, unknown>;
  return typeof title === 'string' && (to === undefined || typeof to === 'string');
}

/** The breadcrumbs a link carried in its navigation state, if it carried well-formed ones. */
export function breadcrumbsFromState(state: unknown): Crumb[] | undefined {
  const crumbs = (state as Partial<BreadcrumbState> | null)?.breadcrumbs;
  return Array.isArray(crumbs) && crumbs.length > 0 && crumbs.every(isCrumb) ? crumbs : undefined;
}

export interface PageHeaderProps {
  /** The page's heading (the page's only h1). */
  title: string;
  /**
   * The trail after the Home icon, made by the page from its route and the names it fetched: the
   * same after a reload, a sign-in or in a new tab as when reached by a link.
   */
  breadcrumbs?: Crumb[];
  /** A back arrow: to this route, or one step back in the history with `true`. */
  back?: string | true;
  /** Actions at the right of the title (buttons). */
  extra?: ReactNode;
}

/**
 * The header of every console page: breadcrumbs starting with a Home icon (to the dashboard), an
 * optional back arrow, the title and the page's actions.
 */
export function PageHeader({ title, breadcrumbs, back, extra }: PageHeaderProps) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const trail = breadcrumbs ?? [];

  const items = [
    {
      key: 'home',
      title: (
        <Link to="/" aria-label={t('common.home')}>
          <HomeOutlined />
        </Link>
      ),
    },
    ...trail.map((crumb, index) => ({
      key: `${index}-${crumb.title}`,
      title: crumb.to ? <Link to={crumb.to}>{crumb.title}</Link> : <span aria-current={index === trail.length - 1 ? 'page' : undefined}>{crumb.title}</span>,
    })),
  ];

  const backButton =
    back === undefined ? null : back === true ? (
      <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('common.back')} onClick={() => void navigate(-1)} />
    ) : (
      <Link to={back} aria-label={t('common.back')} className="admin-page-header__back">
        <ArrowLeftOutlined />
      </Link>
    );

  return (
    <div className="admin-page-header">
      <nav aria-label={t('common.breadcrumbs')}>
        <Breadcrumb items={items} />
      </nav>
      <div className="admin-page-header__row">
        {backButton}
        <h1 className="admin-page-header__title">{title}</h1>
        {extra ? <div className="admin-page-header__extra">{extra}</div> : null}
      </div>
    </div>
  );
}
