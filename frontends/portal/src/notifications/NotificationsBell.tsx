import BellOutlined from '@ant-design/icons/BellOutlined';
import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveNotificationsQuery } from './notifications-api';
import { usePageVisible } from './use-page-visible';
import './notifications.css';

// Fetched when first opened: every signed-in page shows the bell, few open it.
const NotificationsDrawer = lazy(() => import('./NotificationsDrawer').then((module) => ({ default: module.NotificationsDrawer })));

/**
 * How often the list is read again while the page is shown. The portal has no live connection:
 * the notification hub is the console's (it takes the console's tokens only).
 */
export const NOTIFICATIONS_POLL_MS = 30_000;

/**
 * The bell of the top bar: its badge counts the unread notifications, read every 30 seconds while
 * the page is shown (at once when it is shown again); it opens the notifications drawer.
 */
export function NotificationsBell() {
  const { t, i18n } = useTranslation('portal');
  const visible = usePageVisible();
  const { data, refetch, isUninitialized } = useActiveNotificationsQuery(i18n.language, { pollingInterval: visible ? NOTIFICATIONS_POLL_MS : 0 });
  const [open, setOpen] = useState(false);
  const wasVisible = useRef(visible);

  useEffect(() => {
    if (visible && !wasVisible.current && !isUninitialized) void refetch();
    wasVisible.current = visible;
  }, [visible, isUninitialized, refetch]);

  const unread = data?.unread ?? 0;
  const label = unread ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell');
  return (
    <>
      <Badge count={unread} size="small" className="portal-notifications-bell">
        <Button type="text" icon={<BellOutlined aria-hidden />} aria-label={label} title={label} aria-haspopup="dialog" onClick={() => setOpen(true)} />
      </Badge>
      {open ? (
        <Suspense fallback={null}>
          <NotificationsDrawer onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
