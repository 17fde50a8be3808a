import { BreakableText, identifying } from '@gatehouse/frontend-shared';
import Tag from 'antd/es/tag';
import type { ColumnType } from 'antd/es/table';
import { useLogsTranslation } from './use-logs-translation';

/** What every tab's row says of its user and of who acted on their behalf (Identify As). */
interface ActedRow {
  userName: string | null;
  actorId: string | null;
  actorName: string | null;
}

/** The row's user, tagged with the God user who acted on their behalf when one did. */
function UserCell({ row }: { row: ActedRow }) {
  const { t } = useLogsTranslation();
  return (
    <>
      {row.userName ? <BreakableText text={row.userName} /> : null}
      {row.actorId ? (
        <>
          {' '}
          <Tag color="warning" className="logs-actor">
            {t('columns.onBehalf', { name: row.actorName ?? row.actorId })}
          </Tag>
        </>
      ) : null}
    </>
  );
}

/** Every tab's user column, sortable by user name, first of its row: the column that says whose row it is, never cut and in view on a phone too. */
export function userColumn<Row extends ActedRow>(title: string): ColumnType<Row> {
  return identifying({ key: 'userName', dataIndex: 'userName', title, sorter: true, render: (_, row) => <UserCell row={row} /> });
}
