import CheckOutlined from '@ant-design/icons/CheckOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import { ApiError, useApiDependencies, useFormatDateTime } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/auth-context';
import { downloadResultFile, type NotificationData, type UserNotification } from './notifications-api';
import { useTypeLabel } from './use-type-label';

export interface NotificationItemProps {
  notification: UserNotification;
  onMarkRead: () => void;
  onDelete: () => void;
  onOpenResult: () => void;
}

/** The name a job's file is saved under when the server gives none. */
const RESULT_FILE_NAME = 'Result.xlsx';

/** A job's file (an export, a report): downloaded with the user's token, saying why when it cannot be (expired, say). */
function FileResult({ fileId }: { fileId: string }) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const dependencies = useApiDependencies(useAuth());
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setFailure(null);
    setBusy(true);
    try {
      await downloadResultFile(dependencies, fileId, RESULT_FILE_NAME, common);
    } catch (error) {
      // A network failure has no message of ours: the title says it all.
      setFailure(error instanceof ApiError ? error.message : '');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="small" icon={<DownloadOutlined aria-hidden />} loading={busy} onClick={() => void download()}>
        {t('notifications.download')}
      </Button>
      {failure !== null ? <Alert className="portal-notification__alert" type="error" showIcon title={t('notifications.downloadError')} description={failure || undefined} /> : null}
    </>
  );
}

/** Whether the data is an import's outcome (counts, errors or warnings), which "Open Result" shows. */
function isImportResult(data: NotificationData): boolean {
  return data.totalElements !== undefined || data.importedElements !== undefined || Boolean(data.errors?.length) || Boolean(data.warnings?.length);
}

/** What a job came to, in a line: a failure's message, the file it produced, or an import's counts and "Open Result". */
function DataSummary({ data, onOpenResult }: { data: NotificationData; onOpenResult: () => void }) {
  const { t } = useTranslation('portal');
  const errors = data.errors?.length ?? 0;
  const warnings = data.warnings?.length ?? 0;
  return (
    <>
      {data.messageError ? <Alert className="portal-notification__alert" type="error" showIcon title={t('notifications.errorTitle')} description={data.messageError} /> : null}
      {data.fileUrl || isImportResult(data) ? (
        <div className="portal-notification__summary">
          {data.totalElements !== undefined ? <span>{t('notifications.imported', { imported: data.importedElements ?? 0, total: data.totalElements })}</span> : null}
          {errors ? <Tag color="error">{t('notifications.errors', { count: errors })}</Tag> : null}
          {warnings ? <Tag color="warning">{t('notifications.warnings', { count: warnings })}</Tag> : null}
          {isImportResult(data) ? (
            <Button size="small" type="link" onClick={onOpenResult}>
              {t('notifications.openResult')}
            </Button>
          ) : null}
          {data.fileUrl ? <FileResult fileId={data.fileUrl} /> : null}
        </div>
      ) : null}
    </>
  );
}

/** One notification: its type, whether it is read, its date and text and, for a job, its outcome. */
export function NotificationItem({ notification, onMarkRead, onDelete, onOpenResult }: NotificationItemProps) {
  const { t } = useTranslation('portal');
  const formatDateTime = useFormatDateTime();
  const typeLabel = useTypeLabel();
  const unread = !notification.readed;
  return (
    <li className={`portal-notification${unread ? ' portal-notification--unread' : ''}`}>
      <div className="portal-notification__head">
        <span className="portal-notification__type">{typeLabel(notification.type)}</span>
        {unread ? <Tag color="processing">{t('notifications.unread')}</Tag> : <span className="visually-hidden">{t('notifications.read')}</span>}
        <time className="portal-notification__date" dateTime={notification.creationTime}>
          {formatDateTime(notification.creationTime)}
        </time>
        {unread ? <Button type="text" size="small" icon={<CheckOutlined aria-hidden />} aria-label={t('notifications.markRead')} title={t('notifications.markRead')} onClick={onMarkRead} /> : null}
        <Button type="text" size="small" icon={<DeleteOutlined aria-hidden />} aria-label={t('notifications.delete')} title={t('notifications.delete')} onClick={onDelete} />
      </div>
      {notification.description ? <p className="portal-notification__text">{notification.description}</p> : null}
      {notification.data ? <DataSummary data={notification.data} onOpenResult={onOpenResult} /> : null}
    </li>
  );
}
