import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import SendOutlined from '@ant-design/icons/SendOutlined';
import { WEBHOOK_DELIVERY_STATUSES } from '@gatehouse/contracts';
import { ReadableTable, useFormatDateTime, useMediaQuery } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Select from 'antd/es/select';
import type { TableProps } from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table/interface';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { NARROW_TABLE_QUERY } from '../directory/components/DataTable';
import { ErrorAlert } from '../directory/components/ErrorAlert';
import { errorMessage } from '../directory/components/errors';
import type { Feedback } from '../directory/components/feedback';
import { PAGE_SIZES, useListState } from '../directory/components/list-state';
import { useDirectoryTranslation } from '../directory/use-directory-translation';
import { eventLabel } from './events';
import { useWebhooksTranslation } from './use-webhooks-translation';
import { DeliveryStatusTag } from './WebhookStatusTag';
import {
  useResendWebhookDeliveryMutation,
  useWebhookDeliveriesQuery,
  type DeliveriesQuery,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
} from './webhooks-api';

/** The delivery log's query of a page: newest first, by the contract's `top` and `skip`, of one status when filtered. */
export function deliveriesQueryOf(page: number, pageSize: number, status: string | undefined): DeliveriesQuery {
  return {
    top: pageSize,
    skip: (page - 1) * pageSize,
    orderBy: 'createdAt desc',
    status: (WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(status ?? '') ? (status as WebhookDeliveryStatus) : undefined,
  };
}

/**
 * An endpoint's delivery log, newest first: each delivery's event, status, attempts and last answer
 * (code, duration, error), its times, and "Send again"; filtered by status, paged by the server.
 */
export function WebhookDeliveries({ webhookId, feedback }: { webhookId: string; feedback: Feedback }) {
  const { t } = useWebhooksTranslation();
  const { t: td } = useDirectoryTranslation();
  const formatDateTime = useFormatDateTime();
  const narrow = useMediaQuery(NARROW_TABLE_QUERY);
  const [state, setState] = useListState();
  const status = state.filters.status || undefined;
  const { data, isFetching, error, refetch } = useWebhookDeliveriesQuery({ id: webhookId, query: deliveriesQueryOf(state.page, state.pageSize, status) });
  const [resend] = useResendWebhookDeliveryMutation();
  const [resending, setResending] = useState<string>();

  const none = td('common.none');
  const when = (value: string | null) => (value ? formatDateTime(value) : none);

  const sendAgain = async (delivery: WebhookDelivery) => {
    setResending(delivery.id);
    const result = await resend({ id: webhookId, deliveryId: delivery.id });
    setResending(undefined);
    if (result.error) feedback.error(errorMessage(result.error, td));
    else feedback.success(t('deliveries.resent'));
  };

  const columns: ColumnsType<WebhookDelivery> = [
    {
      key: 'eventType',
      title: t('deliveries.event'),
      render: (_, delivery) => (
        <span className="webhooks-delivery-event">
          {eventLabel(t, delivery.eventType)}
          <code className="webhooks-events__name">{delivery.eventType}</code>
        </span>
      ),
    },
    { key: 'status', title: t('deliveries.status'), render: (_, delivery) => <DeliveryStatusTag status={delivery.status} /> },
    { key: 'attempts', title: t('deliveries.attempts'), dataIndex: 'attempts' },
    { key: 'lastStatusCode', title: t('deliveries.statusCode'), render: (_, delivery) => delivery.lastStatusCode ?? none },
    {
      key: 'lastDurationMs',
      title: t('deliveries.duration'),
      render: (_, delivery) => (delivery.lastDurationMs === null ? none : t('deliveries.durationMs', { ms: delivery.lastDurationMs })),
    },
    { key: 'lastError', title: t('deliveries.lastError'), render: (_, delivery) => <LastError text={delivery.lastError} /> },
    { key: 'createdAt', title: t('deliveries.createdAt'), render: (_, delivery) => formatDateTime(delivery.createdAt) },
    { key: 'lastAttemptAt', title: t('deliveries.lastAttemptAt'), render: (_, delivery) => when(delivery.lastAttemptAt) },
    { key: 'nextAttemptAt', title: t('deliveries.nextAttemptAt'), render: (_, delivery) => when(delivery.nextAttemptAt) },
    {
      key: 'actions',
      title: t('common.actions'),
      fixed: 'right',
      render: (_, delivery) => (
        <Button
          size="small"
          icon={<SendOutlined aria-hidden />}
          loading={resending === delivery.id}
          aria-label={t('deliveries.resendOf', { event: eventLabel(t, delivery.eventType), date: formatDateTime(delivery.createdAt) })}
          onClick={() => void sendAgain(delivery)}
        >
          {t('deliveries.resend')}
        </Button>
      ),
    },
  ];

  const onChange: TableProps<WebhookDelivery>['onChange'] = (pagination, _filters, _sorter, extra) => {
    if (extra.action !== 'paginate') return;
    if (pagination.pageSize !== undefined && pagination.pageSize !== state.pageSize) setState({ pageSize: pagination.pageSize });
    else if (pagination.current !== undefined) setState({ page: pagination.current });
  };

  return (
    <section className="directory-table" aria-label={t('deliveries.title')}>
      <div className="directory-table__toolbar">
        <Select<WebhookDeliveryStatus>
          className="directory-filter"
          aria-label={t('deliveries.status')}
          placeholder={t('deliveries.allStatuses')}
          allowClear
          value={status as WebhookDeliveryStatus | undefined}
          onChange={(value) => setState({ filters: { ...state.filters, status: value ?? '' } })}
          options={WEBHOOK_DELIVERY_STATUSES.map((value) => ({ value, label: t(`deliveryStatus.${value}`) }))}
        />
        <div className="directory-table__actions">
          <Button icon={<ReloadOutlined aria-hidden />} loading={isFetching} onClick={() => void refetch()}>
            {t('deliveries.refresh')}
          </Button>
        </div>
      </div>
      <ErrorAlert error={error} className="directory-table__error" />
      <ReadableTable<WebhookDelivery>
        rowKey="id"
        columns={columns}
        dataSource={data?.items ?? []}
        loading={isFetching}
        size={narrow ? 'small' : 'middle'}
        pagination={{
          current: state.page,
          pageSize: state.pageSize,
          total: data?.count ?? 0,
          pageSizeOptions: [...PAGE_SIZES],
          showSizeChanger: true,
          showTotal: (total, [start, end]) => td('table.total', { start, end, total }),
        }}
        onChange={onChange}
      />
    </section>
  );
}

/** The last attempt's error, cut to a line with the whole of it in a tooltip (reachable by keyboard too). */
function LastError({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <Tooltip title={text}>
      <span className="webhooks-delivery-error" tabIndex={0}>
        {text}
      </span>
    </Tooltip>
  );
}
