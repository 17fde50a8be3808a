import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { downloadFile } from '../../api/admin-api';
import { relativeTime } from '../pats/pat-format';
import type { NotificationData, UserNotification } from './notifications-api';
import { useNotificationsTranslation } from './use-notifications-translation';

export interface NotificationItemProps {
  notification: UserNotification;
  /** Shown as new: unread when the flyout opened. */
  fresh: boolean;
  now: number;
  onDelete: () => void;
  onOpenResult: (data: NotificationData) => void;
}

/** The file a background job produced (a report, an export), kept for a while on the server. */
const resultFileUrl = (fileId: string) => `/api/v1/admin/filestorage/downloadExcel?url=${encodeURIComponent(fileId)}`;

/** "Open Result" for a job that produced a file: downloads it, saying why when it cannot (expired, say). */
function FileResult({ fileId }: { fileId: string }) {
  const { t } = useNotificationsTranslation();
  const [failure, setFailure] = useState<string>();
  return (
    <>
      <Button
        size="small"
        type="link"
        onClick={() => {
          setFailure(undefined);
          downloadFile(resultFileUrl(fileId), 'Report.xlsx').catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)));
        }}
      >
        {t('data.openResult')}
      </Button>
      {failure ? <Alert type="error" showIcon title={failure} /> : null}
    </>
  );
}

/** What an import's outcome says in a line: totals, and the errors and warnings to open; or the file a job produced. */
function DataSummary({ data, onOpenResult }: { data: NotificationData; onOpenResult: (data: NotificationData) => void }) {
  const { t } = useNotificationsTranslation();
  const errors = data.errors?.length ?? 0;
  const warnings = data.warnings?.length ?? 0;
  const counts = [
    data.totalElements !== undefined ? t('data.total', { count: data.totalElements }) : null,
    data.importedElements !== undefined ? t('data.imported', { count: data.importedElements }) : null,
  ].filter((text): text is string => text !== null);
  return (
    <>
      {data.messageError ? <Alert type="error" showIcon title={t('data.errorTitle')} description={data.messageError} /> : null}
      {data.fileUrl ? <FileResult fileId={data.fileUrl} /> : null}
      {counts.length || errors || warnings ? (
        <Space wrap size="small" className="notifications-item__summary">
          {counts.map((text) => (
            <Typography.Text key={text} type="secondary">
              {text}
            </Typography.Text>
          ))}
          {errors ? <Tag color="error">{t('data.errors', { count: errors })}</Tag> : null}
          {warnings ? <Tag color="warning">{t('data.warnings', { count: warnings })}</Tag> : null}
          {errors || warnings ? (
            <Button size="small" type="link" onClick={() => onOpenResult(data)}>
              {t('data.openResult')}
            </Button>
          ) : null}
        </Space>
      ) : null}
    </>
  );
}

/** One notification of the flyout: its type, text, age and, for an import, its outcome. */
export function NotificationItem({ notification, fresh, now, onDelete, onOpenResult }: NotificationItemProps) {
  const { t, i18n, typeLabel } = useNotificationsTranslation();
  return (
    <li className={`notifications-item${fresh ? ' notifications-item--fresh' : ''}`}>
      <div className="notifications-item__head">
        <Typography.Text strong>{typeLabel(notification.type)}</Typography.Text>
        {fresh ? <Tag color="processing">{t('drawer.unread')}</Tag> : null}
        <Typography.Text type="secondary" className="notifications-item__when">
          <time dateTime={notification.creationTime}>{relativeTime(notification.creationTime, i18n.language, now)}</time>
        </Typography.Text>
        <Button type="text" size="small" icon={<DeleteOutlined aria-hidden />} aria-label={t('drawer.delete')} onClick={onDelete} />
      </div>
      {notification.description ? <Typography.Paragraph className="notifications-item__text">{notification.description}</Typography.Paragraph> : null}
      {notification.data ? <DataSummary data={notification.data} onOpenResult={onOpenResult} /> : null}
    </li>
  );
}
