import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Table from 'antd/es/table';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationData } from './notifications-api';

type RowMessage = NonNullable<NotificationData['errors']>[number];

/** The spec's scroll area height. */
const SCROLL_HEIGHT = 420;

/** The spec's flyout width, which the result keeps. */
const RESULT_WIDTH = 650;

function Rows({ caption, rows }: { caption: string; rows: readonly RowMessage[] }) {
  const { t } = useTranslation('portal');
  const headingId = useId();
  if (rows.length === 0) return null;
  return (
    <section className="portal-notification-result__section" aria-labelledby={headingId}>
      <h3 id={headingId} className="portal-notification-result__caption">
        {caption}
      </h3>
      <Table<RowMessage>
        size="small"
        pagination={false}
        scroll={{ y: SCROLL_HEIGHT }}
        rowKey={(row) => `${row.row}:${row.reason}`}
        dataSource={[...rows]}
        columns={[
          { key: 'row', title: t('notifications.result.row'), dataIndex: 'row', width: 80 },
          { key: 'reason', title: t('notifications.result.message'), dataIndex: 'reason' },
        ]}
      />
    </section>
  );
}

/**
 * "Open Result": what an import came to (rows read, imported, errors and warnings) and, for each
 * row refused or taken with a warning, its number and why.
 */
export function ImportResultModal({ data, onClose }: { data: NotificationData; onClose: () => void }) {
  const { t } = useTranslation('portal');
  const errors = data.errors ?? [];
  const warnings = data.warnings ?? [];
  const totals: Array<[string, number | undefined]> = [
    [t('notifications.result.total'), data.totalElements],
    [t('notifications.result.imported'), data.importedElements],
    [t('notifications.result.errors'), errors.length],
    [t('notifications.result.warnings'), warnings.length],
  ];
  return (
    <Modal
      open
      width={RESULT_WIDTH}
      title={t('notifications.result.title')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('notifications.result.close')}
        </Button>
      }
    >
      <dl className="portal-notification-result__totals">
        {totals
          .filter((entry): entry is [string, number] => entry[1] !== undefined)
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <Rows caption={t('notifications.result.errors')} rows={errors} />
      <Rows caption={t('notifications.result.warnings')} rows={warnings} />
    </Modal>
  );
}
