import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import Button from 'antd/es/button';
import type { ColumnType } from 'antd/es/table';
import type { DirectoryT } from '../use-directory-translation';

/** The actions column of a list whose rows can be deleted or removed: a trash button per row, named by `label`. */
export function deleteColumn<Row>(t: DirectoryT, label: (row: Row) => string, onDelete: (row: Row) => void): ColumnType<Row> {
  return {
    key: 'actions',
    title: t('common.actions'),
    width: 88,
    render: (_, row) => <Button type="text" danger icon={<DeleteOutlined />} aria-label={label(row)} onClick={() => onDelete(row)} />,
  };
}
