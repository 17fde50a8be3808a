import BellOutlined from '@ant-design/icons/BellOutlined';
import FloatButton from 'antd/es/float-button';
import notification from 'antd/es/notification';
import { useState } from 'react';
import { NotificationsDrawer } from './NotificationsDrawer';
import { useActiveNotificationsQuery, useMarkNotificationsReadMutation, type UserNotification } from './notifications-api';
import { useNotificationHub } from './use-notification-hub';
import { useNotificationsTranslation } from './use-notifications-translation';
import { useProcessToasts } from './use-process-toasts';
import './notifications.css';

/**
 * Notifications and jobs (spec 2 and 4): the floating button at the bottom right, whose badge
 * counts the unread notifications, opens the flyout; opening it marks those shown as read, then the
 * list is reloaded. The hub's NewNotification shows a toast and reloads the list (marking it read at
 * once when the flyout is open); NewProcess shows a toast until the process ends.
 */
export default function NotificationsCenter() {
  const { t, i18n, typeLabel } = useNotificationsTranslation();
  // Written by the server in the interface's language: another language asks again.
  const list = useActiveNotificationsQuery(i18n.language);
  const [markRead] = useMarkNotificationsReadMutation();
  const [toasts, toastHolder] = notification.useNotification();
  const processes = useProcessToasts(toasts);
  const [open, setOpen] = useState(false);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());

  /** Marks read those of `items` that are not (the ones the flyout shows), keeping them marked as new while it is open. */
  const markShown = (items: readonly UserNotification[]) => {
    const ids = items.filter((item) => !item.readed).map((item) => item.id);
    if (ids.length === 0) return;
    setFresh((previous) => new Set([...previous, ...ids]));
    void markRead({ ids });
  };

  const openFlyout = () => {
    setFresh(new Set());
    setOpen(true);
    if (list.data) markShown(list.data.items);
    else void list.refetch().then((reloaded) => reloaded.data && markShown(reloaded.data.items));
  };

  useNotificationHub({
    onNotification: (pushed) => {
      toasts.info({ key: pushed.id, title: typeLabel(pushed.type), description: pushed.description ?? t('toast.newNotification') });
      // A finished process announces itself this way: its progress toast goes at once.
      processes.refresh();
      void list.refetch().then((reloaded) => {
        if (open && reloaded.data) markShown(reloaded.data.items);
      });
    },
    onProcess: processes.announce,
    onConnected: () => {
      void list.refetch();
      processes.refresh();
    },
  });

  const unread = list.data?.unread ?? 0;
  return (
    <>
      {toastHolder}
      <FloatButton
        className="notifications-button"
        icon={<BellOutlined aria-hidden />}
        badge={{ count: unread }}
        aria-label={unread ? `${t('button.label')}: ${t('button.unread', { count: unread })}` : t('button.label')}
        tooltip={t('button.label')}
        onClick={openFlyout}
      />
      {open ? <NotificationsDrawer fresh={fresh} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
