import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { WEBHOOK_EVENT_TYPES } from '@gatehouse/contracts';
import { BreakableText, ClampedText, identifying } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ListResult } from '../../api/admin-api';
import { breadcrumbState } from '../../shell/PageHeader';
import { useFeedback } from '../directory/components/feedback';
import { listTableProps, useListState, type ListState } from '../directory/components/list-state';
import { ListPage } from '../directory/components/ListPage';
import { webhookPath, webhooksCrumb } from './crumbs';
import { eventLabel } from './events';
import { NewWebhookModal } from './NewWebhookModal';
import { useWebhooksTranslation } from './use-webhooks-translation';
import { WebhookSecretDialog } from './WebhookSecretDialog';
import { WebhookStatusTag } from './WebhookStatusTag';
import { useWebhooksQuery, type SavedWebhook, type Webhook, type WebhookEventType } from './webhooks-api';
import './webhooks.css';

/** Where the list's query is remembered (the pattern of the other lists' keys). */
export const WEBHOOKS_LIST_KEY = 'IDENTITY-WEBHOOKS-LIST';

/** Where the user's choice of the list's columns is kept. */
export const WEBHOOKS_COLUMNS_KEY = 'IDENTITY-WEBHOOKS-COLUMNS';

/** Up to this many events, the list names them; beyond, it counts them (their names in a tooltip). */
const NAMED_EVENTS = 2;

/**
 * The page of the list the table shows: the API answers every endpoint at once (there are a few),
 * so the search (address, description, application) and the paging happen here.
 */
export function webhooksPage(items: readonly Webhook[] | undefined, state: ListState): ListResult<Webhook> | undefined {
  if (!items) return undefined;
  const search = state.search.trim().toLowerCase();
  const matching = search ? items.filter((webhook) => [webhook.url, webhook.description, webhook.applicationName].some((text) => text?.toLowerCase().includes(search))) : items;
  const start = (state.page - 1) * state.pageSize;
  return { items: matching.slice(start, start + state.pageSize), count: matching.length };
}

/** /admin/webhooks (Administrator, God): the endpoints, their state and their pending and failed deliveries; "New endpoint". */
export default function WebhooksPage() {
  const { t } = useWebhooksTranslation();
  const navigate = useNavigate();
  const feedback = useFeedback();
  const list = useListState(WEBHOOKS_LIST_KEY);
  const { data, isFetching, error } = useWebhooksQuery();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<SavedWebhook>();

  const open = (webhook: Pick<Webhook, 'id' | 'url'>) =>
    void navigate(webhookPath(webhook.id), { state: breadcrumbState([webhooksCrumb(t), { title: webhook.url }]) });
  const onCreated = (webhook: SavedWebhook) => {
    setCreating(false);
    feedback.success(t('list.created', { url: webhook.url }));
    if (webhook.secret) setCreated(webhook);
    else open(webhook);
  };

  const columns: ColumnsType<Webhook> = [
    identifying({
      key: 'url',
      title: t('list.url'),
      render: (_, webhook) => (
        <Link to={webhookPath(webhook.id)} state={breadcrumbState([webhooksCrumb(t), { title: webhook.url }])}>
          <BreakableText text={webhook.url} />
        </Link>
      ),
    }),
    { key: 'description', title: t('list.description'), render: (_, webhook) => <ClampedText text={webhook.description} /> },
    {
      key: 'application',
      title: t('list.application'),
      render: (_, webhook) => (webhook.applicationId ? (webhook.applicationName ?? webhook.applicationId) : t('list.allApplications')),
    },
    { key: 'events', title: t('list.events'), render: (_, webhook) => <EventsSummary events={webhook.events} /> },
    { key: 'status', title: t('list.status'), render: (_, webhook) => <WebhookStatusTag webhook={webhook} /> },
    { key: 'pendingDeliveries', title: t('list.pending'), render: (_, webhook) => webhook.pendingDeliveries },
    {
      key: 'failedDeliveries',
      title: t('list.failed'),
      render: (_, webhook) => (webhook.failedDeliveries ? <Tag color="error">{webhook.failedDeliveries}</Tag> : webhook.failedDeliveries),
    },
  ];

  return (
    <>
      <ListPage<Webhook>
        title={t('list.title')}
        rowKey="id"
        columns={columns}
        columnsStorageKey={WEBHOOKS_COLUMNS_KEY}
        {...listTableProps(list, { data: webhooksPage(data?.items, list[0]), isFetching, error })}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t('list.newEndpoint')}
          </Button>
        }
      />
      {creating ? <NewWebhookModal onClose={() => setCreating(false)} onCreated={onCreated} /> : null}
      {created?.secret ? (
        <WebhookSecretDialog
          url={created.url}
          secret={created.secret}
          onClose={() => {
            setCreated(undefined);
            open(created);
          }}
        />
      ) : null}
      {feedback.holder}
    </>
  );
}

/** An endpoint's events: "All events", their names when there are few, else their count with the names in a tooltip. */
function EventsSummary({ events }: { events: readonly WebhookEventType[] }) {
  const { t } = useWebhooksTranslation();
  if (WEBHOOK_EVENT_TYPES.every((type) => events.includes(type))) return <Tag color="blue">{t('list.allEvents')}</Tag>;
  if (events.length <= NAMED_EVENTS) {
    return (
      <span className="webhooks-event-tags">
        {events.map((type) => (
          <Tag key={type} title={type}>
            {eventLabel(t, type)}
          </Tag>
        ))}
      </span>
    );
  }
  return (
    <Tooltip
      title={
        <ul className="webhooks-event-list">
          {events.map((type) => (
            <li key={type}>{eventLabel(t, type)}</li>
          ))}
        </ul>
      }
    >
      <Tag tabIndex={0}>{t('list.eventCount', { count: events.length })}</Tag>
    </Tooltip>
  );
}
