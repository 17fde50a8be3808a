import CheckOutlined from '@ant-design/icons/CheckOutlined';
import { identifying } from '@gatehouse/frontend-shared';
import type { ColumnsType } from 'antd/es/table';
import { useAreasQuery, type Area } from '../api/lookups-api';
import { LIST_STORAGE_KEYS, listTableProps, toListQuery, useListState } from '../components/list-state';
import { ListPage } from '../components/ListPage';
import { useDirectoryTranslation } from '../use-directory-translation';

/** /admin/areas: the areas, read-only; the list query is remembered. */
export function AreasPage() {
  const { t } = useDirectoryTranslation();
  const list = useListState(LIST_STORAGE_KEYS.areas, { sort: { field: 'name', direction: 'asc' } });
  const [state] = list;
  const areas = useAreasQuery(toListQuery(state));

  const flag = (value: boolean, label: string) => (value ? <CheckOutlined aria-label={label} /> : null);
  const columns: ColumnsType<Area> = [
    identifying({ key: 'name', dataIndex: 'name', title: t('areas.name'), sorter: true }),
    { key: 'default', title: t('areas.default'), sorter: true, align: 'center', render: (_, area) => flag(area.default, t('areas.default')) },
    { key: 'system', title: t('areas.system'), sorter: true, align: 'center', render: (_, area) => flag(area.system, t('areas.system')) },
  ];

  return <ListPage<Area> title={t('areas.title')} rowKey="id" columns={columns} {...listTableProps(list, areas)} />;
}
