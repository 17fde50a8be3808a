import LoadingOutlined from '@ant-design/icons/LoadingOutlined';
import { useMediaQuery } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Empty from 'antd/es/empty';
import Popconfirm from 'antd/es/popconfirm';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../api/errors';
import { NARROW_SCREEN_QUERY } from '../shell/breakpoints';
import { ImportResultModal } from './ImportResultModal';
import { NotificationItem } from './NotificationItem';
import {
  useActiveNotificationsQuery,
  useActiveTasksQuery,
  useDeleteAllNotificationsMutation,
  useDeleteNotificationMutation,
  useMarkNotificationsReadMutation,
  type ActiveTask,
  type NotificationData,
  type UserNotification,
} from './notifications-api';
import { useTypeLabel } from './use-type-label';

/** The spec's flyout width. */
export const NOTIFICATIONS_DRAWER_WIDTH = 650;

/** The user's background processes that have not finished: an upload still being turned into requests, say. */
function RunningTasks({ tasks }: { tasks: readonly ActiveTask[] }) {
  const { t } = useTranslation('portal');
  const typeLabel = useTypeLabel();
  const headingId = useId();
  if (tasks.length === 0) return null;
  return (
    <section className="portal-notifications__tasks" aria-labelledby={headingId}>
      <h3 id={headingId} className="portal-notifications__heading">
        {t('notifications.inProgress')}
      </h3>
      <ul className="portal-notifications__list">
        {tasks.map((task) => (
          <li key={task.id} className="portal-notifications__task">
            <LoadingOutlined aria-hidden spin />
            <span>
              {t(task.status === 'Queued' ? 'notifications.queued' : 'notifications.running', { type: typeLabel(task.type) })}
              {task.total ? ` · ${t('notifications.progress', { progress: task.progress, total: task.total })}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The notifications drawer: the user's newest notifications (newest first), each with its read
 * state and date, removable, and for a job its outcome; "Mark all as read" and "Delete all" above
 * them, and the processes still running. The list is read again as the drawer opens.
 */
export function NotificationsDrawer({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('portal');
  const { t: common, i18n } = useTranslation();
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY);
  const list = useActiveNotificationsQuery(i18n.language, { refetchOnMountOrArgChange: true });
  const tasks = useActiveTasksQuery(undefined, { refetchOnMountOrArgChange: true });
  const [markRead, marking] = useMarkNotificationsReadMutation();
  const [remove, removal] = useDeleteNotificationMutation();
  const [removeAll, removalOfAll] = useDeleteAllNotificationsMutation();
  const [result, setResult] = useState<NotificationData>();
  const items = list.data?.items ?? [];
  const unread = list.data?.unread ?? 0;

  const markAllRead = () => {
    const shown = items.filter((item) => !item.readed).map((item) => item.id);
    // The ones shown, so that one arriving meanwhile stays unread; all of them when some unread
    // ones are older than the list reaches.
    void markRead(unread > shown.length || shown.length === 0 ? {} : { ids: shown });
  };

  const openResult = (notification: UserNotification) => {
    if (!notification.data) return;
    setResult(notification.data);
    if (!notification.readed) void markRead({ ids: [notification.id] });
  };

  const actionError = marking.error ?? removal.error ?? removalOfAll.error;

  return (
    <Drawer
      open
      onClose={onClose}
      placement="right"
      size={narrow ? '100%' : NOTIFICATIONS_DRAWER_WIDTH}
      title={t('notifications.title')}
      closable={{ 'aria-label': t('notifications.close') }}
      extra={
        items.length ? (
          <Space>
            <Button disabled={unread === 0} loading={marking.isLoading} onClick={markAllRead}>
              {t('notifications.markAllRead')}
            </Button>
            <Popconfirm
              title={t('notifications.confirmDeleteAll')}
              okText={t('notifications.confirmDelete')}
              cancelText={t('notifications.cancel')}
              onConfirm={() => void removeAll()}
            >
              <Button danger loading={removalOfAll.isLoading}>
                {t('notifications.deleteAll')}
              </Button>
            </Popconfirm>
          </Space>
        ) : null
      }
    >
      {list.error ? <Alert className="portal-notifications__alert" type="error" showIcon title={t('notifications.loadError')} description={failureMessage(list.error, common)} /> : null}
      {actionError ? <Alert className="portal-notifications__alert" type="error" showIcon title={t('notifications.actionError')} description={failureMessage(actionError, common)} /> : null}
      <RunningTasks tasks={tasks.data?.items ?? []} />
      {list.isLoading ? <Skeleton active paragraph={{ rows: 3 }} /> : null}
      {list.data && items.length === 0 ? <Empty description={t('notifications.empty')} /> : null}
      {items.length ? (
        <ul className="portal-notifications__list" aria-label={t('notifications.title')}>
          {items.map((notification) => (
            <NotificationItem
              key={notification.id}
              notification={notification}
              onMarkRead={() => void markRead({ ids: [notification.id] })}
              onDelete={() => void remove(notification.id)}
              onOpenResult={() => openResult(notification)}
            />
          ))}
        </ul>
      ) : null}
      {result ? <ImportResultModal data={result} onClose={() => setResult(undefined)} /> : null}
    </Drawer>
  );
}
