import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Empty from 'antd/es/empty';
import Popconfirm from 'antd/es/popconfirm';
import Skeleton from 'antd/es/skeleton';
import { useState } from 'react';
import { ApiErrorAlert } from '../../shell/ApiErrorAlert';
import { ImportResultModal } from './ImportResultModal';
import { NotificationItem } from './NotificationItem';
import { useActiveNotificationsQuery, useDeleteAllNotificationsMutation, useDeleteNotificationMutation, type NotificationData } from './notifications-api';
import { useNotificationsTranslation } from './use-notifications-translation';

/** The spec's flyout width. */
export const FLYOUT_WIDTH = 650;

export interface NotificationsDrawerProps {
  /** The ids that were unread when the flyout opened (or came while it was open). */
  fresh: ReadonlySet<string>;
  onClose: () => void;
}

/** The flyout: the newest notifications, each removable, or all at once. */
export function NotificationsDrawer({ fresh, onClose }: NotificationsDrawerProps) {
  const { t, i18n } = useNotificationsTranslation();
  const list = useActiveNotificationsQuery(i18n.language);
  const [remove, removal] = useDeleteNotificationMutation();
  const [removeAll, removalOfAll] = useDeleteAllNotificationsMutation();
  const [result, setResult] = useState<NotificationData>();
  const [firstRender] = useState(Date.now);
  const now = list.fulfilledTimeStamp ?? firstRender;
  const items = list.data?.items ?? [];

  return (
    <Drawer
      open
      size={FLYOUT_WIDTH}
      title={t('drawer.title')}
      onClose={onClose}
      extra={
        items.length ? (
          <Popconfirm title={t('drawer.confirmDeleteAll')} okText={t('drawer.confirm')} cancelText={t('drawer.cancel')} onConfirm={() => void removeAll()}>
            <Button danger loading={removalOfAll.isLoading}>
              {t('drawer.deleteAll')}
            </Button>
          </Popconfirm>
        ) : null
      }
    >
      <ApiErrorAlert error={list.error ?? removal.error ?? removalOfAll.error} className="notifications-drawer__error" />
      {list.isLoading ? <Skeleton active /> : null}
      {list.data && items.length === 0 ? <Empty description={t('drawer.empty')} /> : null}
      {items.length ? (
        <ul className="notifications-drawer__list">
          {items.map((notification) => (
            <NotificationItem
              key={notification.id}
              notification={notification}
              fresh={!notification.readed || fresh.has(notification.id)}
              now={now}
              onDelete={() => void remove(notification.id)}
              onOpenResult={setResult}
            />
          ))}
        </ul>
      ) : null}
      {result ? <ImportResultModal data={result} onClose={() => setResult(undefined)} /> : null}
    </Drawer>
  );
}
