import ExpandOutlined from '@ant-design/icons/ExpandOutlined';
import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Modal from 'antd/es/modal';
import Skeleton from 'antd/es/skeleton';
import Tooltip from 'antd/es/tooltip';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageOf, type QueryError } from '../../api/errors';
import type { ChartPoint } from './ReportChart';

// The charting library is loaded with the first chart that has something to draw.
const ReportChart = lazy(() => import('./ReportChart'));

/** What a widget needs of an RTK Query hook's result. */
export interface ReportQuery<T> {
  data?: T[];
  error?: QueryError;
  isLoading: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/** How a report is drawn: the chart, its points, and the words around it. */
export interface ReportSpec<T> {
  kind: 'line' | 'bar';
  toPoints: (rows: T[]) => ChartPoint[];
  /** The category's name (Hour, Application, Area), heading the table read by screen readers. */
  labelName: string;
  /** What is counted (Sign-ins, Administrators, Users). */
  valueName: string;
  /** Shown when there is nothing to draw. */
  emptyText: string;
}

const CARD_CHART_HEIGHT = 240;
const ZOOMED_CHART_HEIGHT = 480;

/** A report's content: a skeleton while loading, the error with a retry, an empty state, or the chart. */
export function ReportBody<T>({ spec, query, height, caption }: { spec: ReportSpec<T>; query: ReportQuery<T>; height: number; caption: string }) {
  const { t } = useTranslation(['admin', 'translation']);
  if (query.isLoading) return <Skeleton active paragraph={{ rows: 5 }} title={false} className="report__placeholder" />;
  if (query.error) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('admin:common.errorTitle')}
        description={errorMessageOf(query.error, t)}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('admin:dashboard.reports.retry')}
          </Button>
        }
      />
    );
  }
  const points = spec.toPoints(query.data ?? []);
  if (points.every((point) => point.count === 0)) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={spec.emptyText} className="report__placeholder" />;
  }
  return (
    <>
      <Suspense fallback={<Skeleton active paragraph={{ rows: 5 }} title={false} className="report__placeholder" />}>
        <div className="report__chart" aria-hidden>
          <ReportChart kind={spec.kind} data={points} height={height} valueName={spec.valueName} />
        </div>
      </Suspense>
      {/* The chart is a drawing: its figures, for screen readers. */}
      <table className="visually-hidden">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{spec.labelName}</th>
            <th scope="col">{spec.valueName}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point, index) => (
            <tr key={`${point.label}-${index}`}>
              <th scope="row">{point.label}</th>
              <td>{point.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export interface ReportCardProps<T> {
  title: string;
  /** The period covered, beside the title ("Last 9 hours"). */
  hint?: string;
  spec: ReportSpec<T>;
  query: ReportQuery<T>;
  /**
   * The zoomed view's own content (filters and their own query); by default the same report,
   * larger. Rendered only while the view is open.
   */
  zoomed?: () => ReactNode;
}

/** A dashboard widget: a card with its title, Refresh and Zoom; zooming opens the report large in a dialog. */
export function ReportCard<T>({ title, hint, spec, query, zoomed }: ReportCardProps<T>) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(false);
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="report">
      <Card
        title={
          <span className="report__title">
            <h3 id={titleId}>{title}</h3>
            {hint ? <span className="report__hint">{hint}</span> : null}
          </span>
        }
        extra={
          <span className="report__actions">
            <Tooltip title={t('common.refresh')}>
              <Button
                type="text"
                icon={<ReloadOutlined />}
                aria-label={t('dashboard.reports.refreshOf', { report: title })}
                loading={query.isFetching && !query.isLoading}
                onClick={() => void query.refetch()}
              />
            </Tooltip>
            <Tooltip title={t('dashboard.reports.zoom')}>
              <Button type="text" icon={<ExpandOutlined />} aria-label={t('dashboard.reports.zoomOf', { report: title })} onClick={() => setOpen(true)} />
            </Tooltip>
          </span>
        }
      >
        <ReportBody spec={spec} query={query} height={CARD_CHART_HEIGHT} caption={title} />
      </Card>
      <Modal
        open={open}
        title={hint ? `${title} (${hint})` : title}
        width={1000}
        footer={null}
        destroyOnHidden
        onCancel={() => setOpen(false)}
      >
        {open ? (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} title={false} />}>
            {zoomed?.() ?? <ZoomedReport title={title} spec={spec} query={query} />}
          </Suspense>
        ) : null}
      </Modal>
    </section>
  );
}

/** The zoomed view: optional filters and a Refresh on one line, then the report large. */
export function ZoomedReport<T>({ title, spec, query, filters }: { title: string; spec: ReportSpec<T>; query: ReportQuery<T>; filters?: ReactNode }) {
  const { t } = useTranslation('admin');
  return (
    <div className="report-zoom">
      <div className="report-zoom__toolbar">
        {filters}
        <Button icon={<ReloadOutlined />} loading={query.isFetching && !query.isLoading} onClick={() => void query.refetch()}>
          {t('common.refresh')}
        </Button>
      </div>
      <ReportBody spec={spec} query={query} height={ZOOMED_CHART_HEIGHT} caption={title} />
    </div>
  );
}
