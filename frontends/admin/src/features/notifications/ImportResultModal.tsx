import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import type { NotificationData } from './notifications-api';
import { useNotificationsTranslation } from './use-notifications-translation';

type RowMessage = NonNullable<NotificationData['errors']>[number];

/** The spec's scroll area height. */
const SCROLL_HEIGHT = 420;

function Rows({ caption, rows }: { caption: string; rows: RowMessage[] }) {
  const { t } = useNotificationsTranslation();
  if (rows.length === 0) return null;
  return (
    <section className="notifications-result__section">
      <Typography.Title level={5}>{caption}</Typography.Title>
      <Table<RowMessage>
        size="small"
        pagination={false}
        scroll={{ y: SCROLL_HEIGHT }}
        rowKey={(row) => `${row.row}:${row.reason}`}
        dataSource={rows}
        columns={[
          { key: 'row', title: t('result.row'), dataIndex: 'row', width: 80 },
          { key: 'reason', title: t('result.reason'), dataIndex: 'reason' },
        ]}
      />
    </section>
  );
}

/** "Open Result": the rows of an import that failed or were skipped with a warning, and why. */
export function ImportResultModal({ data, onClose }: { data: NotificationData; onClose: () => void }) {
  const { t } = useNotificationsTranslation();
  return (
    <Modal
      open
      width={650}
      title={t('result.title')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('result.close')}
        </Button>
      }
    >
      <Rows caption={t('result.errors')} rows={data.errors ?? []} />
      <Rows caption={t('result.warnings')} rows={data.warnings ?? []} />
    </Modal>
  );
}
